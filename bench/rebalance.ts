/**
 * bench/rebalance: duplicates when a second stream worker joins a running backlog, and the spread
 * of per-partition progress under a backlog (issue 12, items 6 and 7).
 * One embedded broker; an input of `partitions` partitions holding `events` unique records
 * (`e<i>`, null keys); a passthrough topology (at_least_once). Scenario A (baseline, same run): one
 * worker drains the backlog alone. Scenario B: one worker starts, a second joins the same consumer
 * group once 20% is committed. Output records are counted with kcat (librdkafka, independent of
 * Weir's client): duplicates = records − distinct values. Spread: while the first worker is alone,
 * the committed offset per partition is sampled every second; printed as min/max of the
 * per-partition progress at the 20% mark (1.00 = perfectly even).
 * Run: `node_modules/.bin/node bench/rebalance.ts [events] [partitions]` (default 1,000,000 and 4; needs kcat).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import type { ConfigSnapshot } from '../packages/engine/src/stream/config-snapshot.ts';
import { StreamWorker } from '../packages/engine/src/stream/stream-worker.ts';

const events = Number(process.argv[2] ?? 1_000_000);
const partitions = Number(process.argv[3] ?? 4);
const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';

function snapshot(input: string, output: string): ConfigSnapshot {
  return {
    version: 1,
    topologies: [
      {
        id: 1,
        name: 'pass',
        pipelines: [],
        enabled: true,
        group: 'default',
        input: { name: input, keySerde: string, valueSerde: string },
        output: [{ name: output, keySerde: string, valueSerde: string }],
      },
    ],
    pipelines: [],
    tasks: [],
    rules: [],
    lookups: [],
  } as unknown as ConfigSnapshot;
}

async function committedPerPartition(admin: Admin, group: string, topic: string): Promise<number[]> {
  const [result] = await admin.listConsumerGroupOffsets({
    groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: [...Array(partitions).keys()] }] }] as never,
  });
  const out = new Array<number>(partitions).fill(0);
  for (const t of result?.topics ?? [])
    for (const p of t.partitions) if (p.committedOffset > 0n) out[p.partitionIndex] = Number(p.committedOffset);
  return out;
}

function kcatCount(bootstrap: string, topic: string): { records: number; distinct: number } {
  const out = execFileSync('kcat', ['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%s\n'], {
    maxBuffer: 1024 * 1024 * 1024,
  }).toString();
  const lines = out.split('\n').filter((l) => l.length > 0);
  return { records: lines.length, distinct: new Set(lines).size };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-rebalance-'));
  const broker = new EmbeddedBroker({ dir, internalPartitions: 1 });
  const bootstrap = await broker.start();
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  const worker = (name: string, index: number) =>
    new StreamWorker({
      index,
      connection: { bootstrapBrokers: [bootstrap] },
      clientId: `bench-${name}-${index}`,
      groupId: `bench-${name}`,
      group: 'default',
      guarantee: 'at_least_once',
      transactionalId: `bench-${name}-${index}`,
      alertsTopic: 'bench-alerts',
      onState: () => {},
      onLog: (level, message) => {
        if (level !== 'info') console.error(`[${name}/${index}] ${message}`);
      },
    });
  try {
    const input = 'bench-in';
    await admin.createTopics({ topics: [input, 'out-alone', 'out-join'], partitions, replicas: 1 });
    // idempotent: a retried send must not put a record twice on the input (a loaded machine retries)
    const producer = new Producer({ clientId: 'bench-load', bootstrapBrokers: [bootstrap], idempotent: true });
    for (let i = 0; i < events; i += 5_000) {
      const messages = [];
      for (let j = i; j < Math.min(events, i + 5_000); j++)
        messages.push({ topic: input, partition: j % partitions, value: Buffer.from(`e${j}`) });
      await producer.send({ messages, acks: ProduceAcks.ALL });
    }
    await producer.close();
    const loaded = kcatCount(bootstrap, input);
    console.log(
      `loaded ${loaded.records.toLocaleString('en')} records (${loaded.distinct.toLocaleString('en')} distinct) over ${partitions} partitions`,
    );
    const perPartition = events / partitions;

    for (const scenario of ['alone', 'join'] as const) {
      const group = `bench-${scenario}`;
      const first = worker(scenario, 0);
      first.configure(snapshot(input, `out-${scenario}`));
      const t = performance.now();
      first.start();
      let second: StreamWorker | undefined;
      let spread: number[] | undefined;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const progress = await committedPerPartition(admin, group, input);
        const total = progress.reduce((a, b) => a + b, 0);
        if (!spread && total >= events * 0.2) {
          spread = progress;
          if (scenario === 'join') {
            second = worker(scenario, 1);
            second.configure(snapshot(input, `out-${scenario}`));
            second.start();
          }
        }
        if (total >= loaded.records) break;
      }
      const seconds = (performance.now() - t) / 1000;
      await Promise.all([first.stop(), second?.stop()]);
      const { records, distinct } = kcatCount(bootstrap, `out-${scenario}`);
      const fractions = spread!.map((c) => c / perPartition);
      console.log(
        `${scenario}: ${seconds.toFixed(1)} s, ${records.toLocaleString('en')} output records, ${distinct.toLocaleString('en')} distinct, ` +
          `${(records - loaded.records).toLocaleString('en')} duplicates beyond the input's, ${(events - distinct).toLocaleString('en')} missing; ` +
          `per-partition progress at 20%: ${fractions.map((f) => `${(f * 100).toFixed(0)}%`).join(' / ')} (min/max ${(Math.min(...fractions) / Math.max(...fractions)).toFixed(2)})`,
      );
    }
  } finally {
    await admin.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
