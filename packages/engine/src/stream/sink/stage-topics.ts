import type { Admin } from '@platformatic/kafka';
import { isTopicAlreadyExists } from '../../kafka/broker-errors.ts';
import { internalReplication } from '../../kafka/weir-topic-setup.ts';
import { repartitionRetentionMs } from '../repartition.ts';
import type { StageBinding } from '../topology-plan.ts';

export interface EnsuredStageTopics {
  /** The repartition topics to consume, sorted. */
  readonly repartition: string[];
  /** Partition count of each repartition topic. */
  readonly partitions: ReadonlyMap<string, number>;
  /** Every topic that now exists for these stages (inputs, repartition and changelog topics). */
  readonly known: readonly string[];
}

/**
 * Creates the repartition and changelog topics of correlation stages when missing (partitions: the
 * stage's input topic's; the changelog compacted; both replicated like Weir's own topics) and
 * returns the repartition topics to consume with their partition counts.
 */
export async function ensureStageTopics(
  admin: Admin,
  stages: readonly StageBinding[],
  onLog: (message: string) => void,
): Promise<EnsuredStageTopics> {
  const wanted = [...new Set(stages.flatMap((s) => [s.topology.input, s.topics.repartition, s.topics.changelog]))];
  const existing = new Set(await admin.listTopics({ includeInternals: false }));
  const inputMeta = await admin.metadata({ topics: [...new Set(stages.map((s) => s.topology.input))] });
  // replicated like Weir's own topics (3 replicas, min.insync.replicas=2 where the cluster has 3 brokers):
  // the changelog is the only durable copy of the state, the repartition topic holds records in flight
  const replication = wanted.some((t) => !existing.has(t))
    ? await internalReplication(admin)
    : { replicas: -1, configs: [] };
  for (const stage of stages) {
    const partitions = inputMeta.topics.get(stage.topology.input)?.partitionsCount ?? 1;
    const create = (topic: string, configs: { name: string; value: string }[]) =>
      existing.has(topic)
        ? Promise.resolve()
        : admin
            .createTopics({
              topics: [topic],
              partitions,
              replicas: replication.replicas,
              configs: [...configs, ...replication.configs],
            })
            .then(
              () => onLog(`created topic ${topic} (${partitions} partitions)`),
              (err: unknown) => {
                if (!isTopicAlreadyExists(err)) throw err;
              },
            );
    // Retention counts from the append: a replay of last year's events is read before it expires.
    await create(stage.topics.repartition, [
      { name: 'retention.ms', value: String(repartitionRetentionMs) },
      { name: 'message.timestamp.type', value: 'LogAppendTime' },
    ]);
    await create(stage.topics.changelog, [{ name: 'cleanup.policy', value: 'compact' }]);
  }
  const meta = await admin.metadata({ topics: stages.map((s) => s.topics.repartition) });
  const partitions = new Map<string, number>();
  for (const stage of stages) {
    const count = meta.topics.get(stage.topics.repartition)?.partitionsCount;
    if (count) partitions.set(stage.topics.repartition, count);
  }
  return { repartition: [...new Set(stages.map((s) => s.topics.repartition))].sort(), partitions, known: wanted };
}
