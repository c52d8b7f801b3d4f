/**
 * bench/correlation-state: the correlation state store of the stream runtime.
 *   1. Bytes per open group (V8 heap after GC, divided by the groups) for `event_count` and
 *      `value_count` stages, emit=close and emit=event, one event per group.
 *   2. Cost per state update: the in-memory store (what the engine uses, the changelog being the
 *      durable copy) against an embedded node:sqlite store (upsert of the JSON state per update),
 *      in the same process: the ratio is the baseline comparison.
 *   3. Restore time of 1M open groups from a compacted changelog partition on the embedded broker
 *      (the engine's readChangelog + PartitionedStateStore.restore), and into node:sqlite.
 * Run: `node_modules/.bin/node --expose-gc bench/correlation-state.ts [groups]` (default 1,000,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Admin, Consumer, ProduceAcks, Producer } from '@platformatic/kafka';
import { compile, InMemoryCorrelationStateStore } from '../packages/pdl/src/index.ts';
import { EmbeddedBroker } from '@weir/engine';
import { readChangelog } from '../packages/engine/src/stream/state/changelog-restore.ts';
import { PartitionedStateStore } from '../packages/engine/src/stream/state/partitioned-state.ts';
import type { OutgoingRecord } from '../packages/engine/src/stream/records.ts';

const groups = Number(process.argv[2] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const T0 = Date.UTC(2023, 0, 1);

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Heap bytes per group of a stage fed one event for each of `n` groups. */
function bytesPerGroup(pdl: string, n: number): number {
  const before = heap();
  const store = new InMemoryCorrelationStateStore();
  const program = compile(pdl, { stateStore: store, stateId: 'rule:bench', limits: { maxGroups: n + 1 } });
  for (let i = 0; i < n; i++) program.feed({ user: `user-${i}`, host: `h${i % 7}`, _time: T0 + (i % 1000) });
  const after = heap();
  if (store.size('rule:bench#0') !== n) throw new Error(`expected ${n} groups, got ${store.size('rule:bench#0')}`);
  return (after - before) / n;
}

function updates(n: number): { memory: number; sqlite: number } {
  const state = (i: number) => ({
    open: true,
    start: T0,
    end: T0 + 600_000,
    maxTime: T0 + i,
    suppressedUntil: 0,
    summary: { count: i % 50 },
  });
  const memory = new InMemoryCorrelationStateStore();
  let t = performance.now();
  for (let i = 0; i < n; i++) memory.set('s', `["user-${i % 100_000}"]`, state(i));
  const memoryMs = performance.now() - t;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-sqlite-'));
  const db = new DatabaseSync(path.join(dir, 'state.db'));
  db.exec(
    'PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE state (scope TEXT, key TEXT, value TEXT, PRIMARY KEY (scope, key)) WITHOUT ROWID',
  );
  const upsert = db.prepare(
    'INSERT INTO state (scope, key, value) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value',
  );
  t = performance.now();
  // batched like the engine's 2,000-record batches: one transaction per batch
  for (let i = 0; i < n; i += 2000) {
    db.exec('BEGIN');
    for (let j = i; j < Math.min(n, i + 2000); j++)
      upsert.run('s', `["user-${j % 100_000}"]`, JSON.stringify(state(j)));
    db.exec('COMMIT');
  }
  const sqliteMs = performance.now() - t;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { memory: memoryMs, sqlite: sqliteMs };
}

async function restore(n: number): Promise<{ loadMs: number; memoryMs: number; sqliteMs: number; records: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-restore-'));
  const broker = new EmbeddedBroker({ dir, internalPartitions: 1 });
  const bootstrap = await broker.start();
  const admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  try {
    const changelog = 'bench-stage-changelog';
    await admin.createTopics({
      topics: [changelog],
      partitions: 1,
      replicas: 1,
      configs: [{ name: 'cleanup.policy', value: 'compact' }],
    });
    // the changelog of 1M open event_count groups, as the engine writes it
    const source = new PartitionedStateStore();
    source.open('bench-stage-repartition', 0, changelog);
    source.select('bench-stage-repartition', 0);
    const program = compile('event_count timespan=10m group_by user emit=close', {
      stateStore: source,
      stateId: 'rule:bench',
      limits: { maxGroups: n + 1 },
    });
    const producer = new Producer({ clientId: 'bench-load', bootstrapBrokers: [bootstrap] });
    let t = performance.now();
    for (let i = 0; i < n; i += 20_000) {
      for (let j = i; j < Math.min(n, i + 20_000); j++) program.feed({ user: `user-${j}`, _time: T0 + (j % 1000) });
      const out: OutgoingRecord[] = [];
      source.drain(out);
      for (let k = 0; k < out.length; k += 2000)
        await producer.send({ messages: out.slice(k, k + 2000), acks: ProduceAcks.LEADER });
    }
    await producer.close();
    const loadMs = performance.now() - t;
    const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      clientId: 'bench-restore',
      groupId: 'bench-restore-unused',
      bootstrapBrokers: [bootstrap],
    });
    const target = new PartitionedStateStore();
    target.open('bench-stage-repartition', 0, changelog);
    t = performance.now();
    const records = await readChangelog(consumer, changelog, 0, false, (key, value) =>
      target.restore('bench-stage-repartition', 0, key, value),
    );
    const memoryMs = performance.now() - t;
    target.select('bench-stage-repartition', 0);
    if (target.size('rule:bench#0') !== n)
      throw new Error(`restored ${target.size('rule:bench#0')} groups, expected ${n}`);
    const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-sqlite-'));
    const db = new DatabaseSync(path.join(sqliteDir, 'state.db'));
    db.exec(
      'PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID',
    );
    const upsert = db.prepare(
      'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    t = performance.now();
    db.exec('BEGIN');
    await readChangelog(consumer, changelog, 0, false, (key, value) => {
      if (value) upsert.run(key.toString(), value.toString());
    });
    db.exec('COMMIT');
    const sqliteMs = performance.now() - t;
    db.close();
    rmSync(sqliteDir, { recursive: true, force: true });
    await consumer.close(true);
    return { loadMs, memoryMs, sqliteMs, records };
  } finally {
    await admin.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const n = Math.min(groups, 1_000_000);
  const sample = Math.min(n, 200_000);
  console.log(`bytes per open group (${sample.toLocaleString('en')} groups, one event each, V8 heap after GC):`);
  for (const [name, pdl] of [
    ['event_count emit=close', 'event_count timespan=10m group_by user emit=close'],
    ['value_count emit=close', 'value_count(host) timespan=10m group_by user emit=close'],
    ['event_count emit=event', 'event_count timespan=10m group_by user reset=false where _aggregation.value >= 20'],
    [
      'value_count emit=event',
      'value_count(host) timespan=10m group_by user reset=false where _aggregation.value >= 5',
    ],
  ] as const)
    console.log(`  ${name}: ${bytesPerGroup(pdl, sample).toFixed(0)} B`);
  const u = updates(1_000_000);
  console.log(
    `1,000,000 state updates over 100,000 groups: memory ${u.memory.toFixed(0)} ms, node:sqlite ${u.sqlite.toFixed(0)} ms (memory/sqlite time ratio ${(u.memory / u.sqlite).toFixed(3)})`,
  );
  const r = await restore(n);
  console.log(
    `changelog of ${n.toLocaleString('en')} open groups written in ${(r.loadMs / 1000).toFixed(1)} s; restored ${r.records.toLocaleString('en')} records: into memory ${(r.memoryMs / 1000).toFixed(1)} s, into node:sqlite ${(r.sqliteMs / 1000).toFixed(1)} s`,
  );
}

await main();
