import type { Admin } from '@platformatic/kafka';
import { isTopicAlreadyExists } from '../../kafka/broker-errors.ts';
import type { OutgoingRecord } from '../records.ts';
import type { StageBinding } from '../topology-plan.ts';
import type { OutputTopics } from './batch-writer.ts';
import { ensureStageTopics } from './stage-topics.ts';

/** What the sink asks of its admin client. */
export type SinkAdmin = Pick<Admin, 'listTopics' | 'createTopics' | 'metadata' | 'close'>;

/**
 * The one place a stream worker makes topics exist, with the sink's own admin client: the stage
 * topics (repartition and changelog) of a plan, and the output and dead-letter topics a batch
 * writes to (auto-creation is off on Weir's broker). Remembers what it found or made, until `forget`.
 */
export class SinkTopics implements OutputTopics {
  readonly #openAdmin: () => SinkAdmin;
  readonly #onLog: (message: string) => void;
  #admin: SinkAdmin | undefined;
  readonly #known = new Set<string>();
  /** Partition count of each stage's repartition topic ensured so far (where the process stage routes records). */
  readonly partitions = new Map<string, number>();

  constructor(openAdmin: () => SinkAdmin, onLog: (message: string) => void) {
    this.#openAdmin = openAdmin;
    this.#onLog = onLog;
  }

  #client(): SinkAdmin {
    return (this.#admin ??= this.#openAdmin());
  }

  /**
   * Creates the stage topics of these stages when missing; returns the repartition topics to
   * consume, sorted, and the partition count of each.
   */
  async ensureStages(
    stages: readonly StageBinding[],
  ): Promise<{ repartition: string[]; partitions: ReadonlyMap<string, number> }> {
    if (stages.length === 0) return { repartition: [], partitions: new Map() };
    const topics = await ensureStageTopics(this.#client() as Admin, stages, this.#onLog);
    for (const t of topics.known) this.#known.add(t);
    for (const [topic, count] of topics.partitions) this.partitions.set(topic, count);
    return { repartition: topics.repartition, partitions: topics.partitions };
  }

  /** Creates the topics of `out` not known to exist (one partition each; a topic made meanwhile is fine). */
  async ensure(out: readonly OutgoingRecord[]): Promise<void> {
    let missing: Set<string> | undefined;
    for (const record of out) {
      if (!this.#known.has(record.topic)) (missing ??= new Set()).add(record.topic);
    }
    if (!missing) return;
    const admin = this.#client();
    const existing = new Set(await admin.listTopics({ includeInternals: false }));
    const create = [...missing].filter((t) => !existing.has(t));
    if (create.length) {
      try {
        await admin.createTopics({ topics: create, partitions: 1, replicas: -1 });
        this.#onLog(`created topic(s) ${create.join(', ')}`);
      } catch (err) {
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
    for (const t of missing) this.#known.add(t);
    for (const t of existing) this.#known.add(t);
  }

  /** Closes the admin client and forgets what exists (looked up again after a restart). */
  close(): Promise<void> {
    const admin = this.#admin;
    this.#admin = undefined;
    this.#known.clear();
    return admin ? admin.close() : Promise.resolve();
  }
}
