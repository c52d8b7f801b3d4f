/**
 * bench/lag-sampling: what sampling the lag of every consumer group costs a node (issue 23: "lag
 * sampling of 200 groups costs < 2 % of a node's CPU").
 * One embedded broker (or WEIR_TEST_BOOTSTRAP); `topics` topics of 4 partitions with records;
 * `groups` consumer groups, each with committed offsets on 2 of the topics (8 partitions). Measured
 * in this process with process.cpuUsage() over `rounds` samples: Weir's LagSampler.sample() (its
 * ConsumerGroups.lags(): one group list, one offset fetch per coordinator, one end-offset request
 * per leader, the bookkeeping of the history), and as the baseline the same three admin requests
 * made directly with the client (no Weir code). The CPU share is the CPU of one sample divided by
 * the default interval (weir.groups.lag.sample-seconds = 30) — the share of one core.
 * Run: `node_modules/.bin/node bench/lag-sampling.ts [groups] [topics] [rounds]` (default 200, 20, 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, ListOffsetTimestamps, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { ConsumerGroups } from '../packages/engine/src/kafka/consumer-groups.ts';
import { LagSampler } from '../packages/engine/src/kafka/lag-sampler.ts';

const groupCount = Number(process.argv[2] ?? 200);
const topicCount = Number(process.argv[3] ?? 20);
const rounds = Number(process.argv[4] ?? 20);
const intervalSeconds = 30;
const partitions = 4;

let broker: EmbeddedBroker | undefined;
let dir: string | undefined;
let bootstrap = process.env.WEIR_TEST_BOOTSTRAP;
if (!bootstrap) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-lag-'));
  broker = new EmbeddedBroker({ dir, internalPartitions: 1, log: () => {} });
  bootstrap = await broker.start();
}
const connection = { clientId: 'weir-bench-lag', bootstrapBrokers: [bootstrap] };
const run = `${process.pid}`;
const topics = Array.from({ length: topicCount }, (_, i) => `bench-lag-${run}-t${i}`);
const groupIds = Array.from({ length: groupCount }, (_, i) => `bench-lag-${run}-g${i}`);

const admin = new Admin(connection);
const groups = new ConsumerGroups(connection);
try {
  await admin.createTopics({ topics, partitions, replicas: 1 });
  const producer = new Producer({ ...connection, idempotent: true });
  await producer.send({
    messages: topics.flatMap((topic) =>
      Array.from({ length: partitions * 25 }, (_, i) => ({
        topic,
        partition: i % partitions,
        value: Buffer.from(`v${i}`),
      })),
    ),
    acks: ProduceAcks.ALL,
  });
  await producer.close();
  for (const [i, groupId] of groupIds.entries())
    await admin.alterConsumerGroupOffsets({
      groupId,
      topics: [topics[i % topicCount]!, topics[(i + 1) % topicCount]!].map((name) => ({
        name,
        partitionOffsets: Array.from({ length: partitions }, (_, partition) => ({ partition, offset: BigInt(i % 20) })),
      })),
    });

  const sampler = new LagSampler(
    () => groups.lags(),
    { intervalMs: intervalSeconds * 1000, keepMs: 3_600_000, maxGroups: 100_000 },
    (err) => {
      throw err;
    },
  );
  /** The same three requests with the client alone: list groups, fetch their offsets, list end offsets. */
  const baseline = async () => {
    const ids = [...(await admin.listGroups()).keys()];
    const committed = await admin.listConsumerGroupOffsets({ groups: ids });
    const wanted = new Map<string, Set<number>>();
    for (const g of committed)
      for (const t of g.topics) {
        const set = wanted.get(t.name) ?? new Set<number>();
        for (const p of t.partitions) set.add(p.partitionIndex);
        wanted.set(t.name, set);
      }
    await admin.listOffsets({
      topics: [...wanted].map(([name, parts]) => ({
        name,
        partitions: [...parts].map((partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.LATEST })),
      })),
    });
  };
  const measure = async (work: () => Promise<void>) => {
    for (let i = 0; i < 3; i++) await work();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) await work();
    const wall = (performance.now() - t0) / rounds;
    const cpu = process.cpuUsage(cpu0);
    return { cpuMs: (cpu.user + cpu.system) / 1000 / rounds, wallMs: wall };
  };
  const base = await measure(baseline);
  const weir = await measure(() => sampler.sample());
  const sampled = sampler.history(groupIds[0]!);
  if (sampled.length === 0) throw new Error('the sampler kept no history');
  const share = (ms: number) => `${((ms / (intervalSeconds * 1000)) * 100).toFixed(3)} %`;
  console.log(`groups ${groupCount}, topics ${topicCount} × ${partitions} partitions, ${rounds} samples each`);
  console.log(`baseline (client alone): ${base.cpuMs.toFixed(1)} ms CPU, ${base.wallMs.toFixed(1)} ms wall per sample`);
  console.log(
    `Weir LagSampler.sample(): ${weir.cpuMs.toFixed(1)} ms CPU, ${weir.wallMs.toFixed(1)} ms wall per sample`,
  );
  console.log(`ratio (Weir / baseline CPU): ${(weir.cpuMs / base.cpuMs).toFixed(2)}`);
  console.log(`CPU share at one sample every ${intervalSeconds} s: ${share(weir.cpuMs)} of one core (goal < 2 %)`);
} finally {
  await admin.deleteGroups({ groups: groupIds }).catch(() => {});
  await admin.deleteTopics({ topics }).catch(() => {});
  await Promise.allSettled([admin.close(), groups.close()]);
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
