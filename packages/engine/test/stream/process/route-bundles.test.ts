import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigSnapshot } from '../../../src/stream/config-snapshot.ts';
import { processBatch, processInput, type ProcessEnv } from '../../../src/stream/process/record-processor.ts';
import { bundleBytes, decodeBundle, isBundle, RouteBundles } from '../../../src/stream/process/route-bundles.ts';
import type { FetchedRecord, OutgoingRecord, SourceRecord } from '../../../src/stream/records.ts';
import { LookupTables } from '../../../src/rules/lookup-tables.ts';
import { RuleBook } from '../../../src/rules/rule-book.ts';
import { PartitionedStateStore } from '../../../src/stream/state/partitioned-state.ts';
import { buildPlan, TaskCache } from '../../../src/stream/topology-plan.ts';
import { WorkerStats } from '../../../src/stream/worker-stats.ts';
import type { RoutedRecord } from '../../../src/tasks/index.ts';

const T0 = Date.UTC(2023, 4, 1); // a whole number of minutes

const source = (partition: number, offset: number, key: string | undefined = `k${offset}`): SourceRecord => ({
  topic: 'in',
  partition,
  offset: BigInt(offset),
  key: key === undefined ? undefined : Buffer.from(key),
  value: Buffer.from(`line ${offset}`),
  timestamp: BigInt(T0 + offset),
});

const route = (n: number, time: number, window: string, closeFloor: number, stage = 'rule:r'): RoutedRecord => ({
  stage,
  pdlStage: -1,
  key: '["u"]',
  event: { n, _time: time },
  time,
  timestamp: time + 1,
  bundle: { group: '["user"]/60000', window, closeFloor },
});

const add = (b: RouteBundles, partition: number, r: RoutedRecord, from = source(0, Number(r.event['n']))) =>
  b.add('rp', partition, r, r.bundle!, from);

test('routes bundle per repartition partition, stage and input partition, in their order, and round-trip with their input records', () => {
  const b = new RouteBundles();
  add(b, 1, route(1, T0, 'w0', T0 + 120_000));
  add(b, 0, route(2, T0, 'w0', T0 + 120_000), source(1, 2, undefined)); // another input partition
  add(b, 1, route(3, T0 + 1, 'w0', T0 + 120_000, 'rule:s')); // another stage
  add(b, 1, route(4, T0 + 2, 'w0', T0 + 120_000));
  assert.equal(b.size, 3);
  const out: OutgoingRecord[] = [];
  b.drain(out);
  assert.equal(b.size, 0);
  assert.deepEqual(
    out.map((r) => [r.topic, r.partition, r.key?.toString(), r.timestamp]),
    [
      ['rp', 1, 'rule:r', BigInt(T0 + 1)],
      ['rp', 0, 'rule:r', BigInt(T0 + 1)],
      ['rp', 1, 'rule:s', BigInt(T0 + 2)],
    ],
  );
  assert.ok(out.every((r) => isBundle(r.value!)));
  const first = decodeBundle(out[0]!.value!);
  assert.deepEqual(
    first.map((m) => [m.routed, m.source]),
    [
      [{ ...route(1, T0, 'w0', 0), bundle: undefined, origin: { topic: 'in', partition: 0, offset: 1 } }, source(0, 1)],
      [
        {
          ...route(4, T0 + 2, 'w0', 0),
          event: {},
          bundle: undefined,
          origin: { topic: 'in', partition: 0, offset: 4 },
          elided: { group: '["user"]/60000' },
        },
        source(0, 4),
      ],
    ].map(([r, s]) => [JSON.parse(JSON.stringify(r)), s]),
  );
  const other = decodeBundle(out[1]!.value!);
  assert.deepEqual(other[0]!.source, source(1, 2, undefined));
});

test('a route travels without its event only behind a route of its window, not earlier than any of them, before the bundle reaches its close floor', () => {
  const b = new RouteBundles();
  const floor = T0 + 120_000;
  add(b, 0, route(1, T0 + 5_000, 'w0', floor)); // first of its window: with its event
  add(b, 0, route(2, T0 + 5_000, 'w0', floor)); // same time, later offset: left out
  add(b, 0, route(3, T0 + 4_000, 'w0', floor)); // earlier than the window's routes before it: with it
  add(b, 0, route(4, T0 + 9_000, 'w0', floor)); // left out
  add(b, 0, route(5, T0 + 6_000, 'w0', floor)); // earlier than route 4: with it
  add(b, 0, route(6, T0 + 61_000, 'w1', T0 + 180_000)); // another window, first: with it
  add(b, 0, route(7, T0 + 62_000, 'w1', T0 + 180_000)); // left out
  add(b, 0, route(8, T0 + 120_000, 'w2', T0 + 240_000)); // the bundle reaches w0's close floor
  add(b, 0, route(9, T0 + 10_000, 'w0', floor)); // w0 may have closed meanwhile: with it
  add(b, 0, route(10, T0 + 63_000, 'w1', T0 + 180_000)); // w1 cannot have: left out
  const out: OutgoingRecord[] = [];
  b.drain(out);
  const members = decodeBundle(out[0]!.value!);
  assert.deepEqual(
    members.map((m) => [m.routed.event['n'] ?? null, m.routed.elided !== undefined]),
    [
      [1, false],
      [null, true],
      [3, false],
      [null, true],
      [5, false],
      [6, false],
      [null, true],
      [8, false],
      [9, false],
      [null, true],
    ],
  );
  assert.deepEqual(
    members.map((m) => m.routed.origin?.offset),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test('a bundle ends at 256 KiB of keys, values and events: the next one starts as at a batch end, its first route of a window with its event', () => {
  const b = new RouteBundles();
  const big = (offset: number): SourceRecord => ({ ...source(0, offset), value: Buffer.alloc(100_000, 0x61) });
  for (let n = 1; n <= 7; n++) add(b, 0, route(n, T0 + n, 'w0', T0 + 120_000), big(n));
  const out: OutgoingRecord[] = [];
  b.drain(out);
  assert.ok(out.every((r) => r.value!.length < bundleBytes + 100_000 + 1000));
  assert.deepEqual(
    out.map((r) => decodeBundle(r.value!).map((m) => [m.routed.origin?.offset, m.routed.elided !== undefined])),
    [
      [
        [1, false],
        [2, true],
        [3, true],
      ],
      [
        [4, false],
        [5, true],
        [6, true],
      ],
      [[7, false]],
    ],
  );
});

test('a record that is not a bundle is refused with the reason', () => {
  assert.equal(isBundle(Buffer.from('{"s":"rule:r"}')), false);
  assert.throws(() => decodeBundle(Buffer.from([0, 0, 0])), /not a Weir repartition bundle: no header/);
  const header = Buffer.from('{"s":"rule:r","p":-1,"g":"x","o":["in",0],"m":[[1,2,3,4,-1,5,-1,"k"]]}');
  const head = Buffer.from([0, 0, 0, 0, header.length]);
  assert.throws(() => decodeBundle(Buffer.concat([head, header])), /member past the end/);
  assert.throws(
    () => decodeBundle(Buffer.concat([head, header, Buffer.from('abcdefg')])),
    /bytes after the last member/,
  );
  const noMembers = Buffer.from('{"s":"rule:r","p":-1,"o":["in",0],"m":[]}');
  assert.throws(
    () => decodeBundle(Buffer.concat([Buffer.from([0, 0, 0, 0, noMembers.length]), noMembers])),
    /header fields/,
  );
});

// Through the process stage: a suppressing rule's alerts, bundled per batch, give exactly what the
// same alerts routed one record each give, whatever the batches, live and on replays whose batches
// end elsewhere (at-least-once: a batch's records read again after the stage processed its bundles).

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });
const repartition = 'g-t1-1-task1-repartition';
const changelog = 'g-t1-1-task1-changelog';

function suppressingPlan(store: PartitionedStateStore) {
  const snapshot: ConfigSnapshot = {
    version: 1,
    topologies: [
      { id: 1, name: 't1', pipelines: [10], enabled: true, group: 'default', input: json('in'), output: [json('out')] },
    ],
    pipelines: [{ id: 10, name: 'p', tasks: [1] }],
    tasks: [{ id: 1, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['login'], matchAll: true } }],
    rules: [
      {
        id: 'login',
        name: 'Login',
        pdl: 'action="login"',
        enabled: true,
        suppression: { fields: ['user'], window: '1m' },
      },
    ],
  };
  const lookups = new LookupTables();
  const rules = new RuleBook(store);
  rules.update(snapshot.rules, lookups);
  return buildPlan(snapshot, { group: 'default', groupId: 'g', rules, lookups, stateStore: store }, new TaskCache());
}

/** 150 login events on one input partition, 4 s apart, three users (one missing), every 7th 50 s late. */
const inputs: FetchedRecord[] = Array.from({ length: 150 }, (_, i) => {
  const event: Record<string, unknown> = { action: 'login', n: i, _time: T0 + i * 4_000 - (i % 7 === 3 ? 50_000 : 0) };
  if (i % 5 !== 4) event['user'] = ['ann', 'bob', 'cid'][i % 3];
  return {
    topic: 'in',
    partition: 0,
    offset: BigInt(i),
    key: Buffer.from(`k${i % 4}`),
    value: Buffer.from(JSON.stringify(event)),
    timestamp: BigInt(T0 + i),
  } as FetchedRecord;
});

/**
 * Runs the input through the stage: `reads` are the batches the input is read in (offset ranges;
 * a range starting below the previous one's end is a replay), each followed by the stage reading
 * what it routed. `bundled` false routes each alert as a record of its own. The alerts topic's values, in order.
 */
function run(reads: readonly (readonly [number, number])[], bundled: boolean): string[] {
  const store = new PartitionedStateStore();
  const plan = suppressingPlan(store);
  const env: ProcessEnv = {
    alertsTopic: 'alerts',
    stats: new WorkerStats(),
    stagePartitions: new Map([[repartition, 2]]),
  };
  for (const p of [0, 1]) store.open(repartition, p, changelog);
  const offsets = [0, 0];
  const alerts: string[] = [];
  for (const [from, to] of reads) {
    const batch = inputs.slice(from, to);
    let routed: OutgoingRecord[];
    if (bundled) routed = processBatch(batch, plan, store, env).out;
    else {
      routed = [];
      for (const record of batch) processInput(record, plan.byInput.get('in')!, env, routed);
    }
    const stageRecords = routed
      .filter((r) => r.topic === repartition)
      .map((r) => ({ ...r, offset: BigInt(offsets[r.partition!]!++), timestamp: r.timestamp! }) as FetchedRecord);
    for (const p of [0, 1]) {
      const { out, warnings } = processBatch(
        stageRecords.filter((r) => r.partition === p),
        plan,
        store,
        env,
      );
      assert.deepEqual(warnings, []);
      for (const r of out) if (r.topic === 'alerts') alerts.push(r.value!.toString());
      assert.ok(out.every((r) => r.topic === 'alerts' || r.topic === 'out')); // no dead letter
    }
  }
  return alerts;
}

const splits = (sizes: readonly number[], from = 0, to = inputs.length): [number, number][] => {
  const out: [number, number][] = [];
  for (let at = from, i = 0; at < to; i++) {
    const next = Math.min(to, at + sizes[i % sizes.length]!);
    out.push([at, next]);
    at = next;
  }
  return out;
};

test('bundled alerts give, record for record, what alerts routed one by one give: live and replayed, whatever the batches', () => {
  const live = splits([7, 30, 1, 45]);
  const replayed = [...splits([20], 0, 60), ...splits([9, 33], 35, inputs.length)]; // offsets 35–59 read twice
  const fromStart = [...splits([50], 0, 100), ...splits([13], 0, inputs.length)]; // the first 100 read twice
  for (const reads of [live, replayed, fromStart]) {
    const bundled = run(reads, true);
    assert.deepEqual(bundled, run(reads, false));
    // one record a batch (no bundle holds two): the same records, the two stage partitions' interleaved otherwise
    assert.deepEqual(
      [...bundled].sort(),
      run(
        reads.flatMap(([a, b]) => splits([1], a, b)),
        true,
      ).sort(),
    );
  }
  // the documented outcome: per window, the same id, count, first and last seen and update record, live or replayed
  // (a record read again after its window closed is written again: at least once, the same record)
  const updates = (alerts: string[]) =>
    [...new Set(alerts)]
      .map((a) => JSON.parse(a) as { _alert: { id: string; suppression: { count: number } } })
      .filter((a) => a._alert.suppression.count > 0)
      .sort((a, b) => (a._alert.id < b._alert.id ? -1 : 1));
  const ids = (alerts: string[]) =>
    [...new Set(alerts.map((a) => (JSON.parse(a) as { _alert: { id: string } })._alert.id))].sort();
  const once = run(live, true);
  assert.ok(updates(once).length > 10);
  for (const reads of [replayed, fromStart]) {
    assert.deepEqual(updates(run(reads, true)), updates(once));
    assert.deepEqual(ids(run(reads, true)), ids(once));
  }
});

test('a bundled alert the stage cannot take (left out where it is needed) sends its input record to the dead letters', () => {
  const store = new PartitionedStateStore();
  const plan = suppressingPlan(store);
  store.open(repartition, 0, changelog);
  const env: ProcessEnv = {
    alertsTopic: 'alerts',
    stats: new WorkerStats(),
    stagePartitions: new Map([[repartition, 1]]),
  };
  const header = Buffer.from(
    JSON.stringify({
      s: 'rule:login',
      p: -1,
      g: '["user"]/60000',
      o: ['in', 0],
      m: [[T0, T0, 42, T0 + 1, 2, 4, -1, '["ann"]']],
    }),
  );
  const head = Buffer.from([0, 0, 0, 0, 0]);
  head.writeUInt32BE(header.length, 1);
  const bundle = {
    topic: repartition,
    partition: 0,
    offset: 0n,
    key: Buffer.from('rule:login'),
    timestamp: BigInt(T0),
  };
  const value = Buffer.concat([head, header, Buffer.from('k1'), Buffer.from('line')]);
  const { out, warnings } = processBatch([{ ...bundle, value } as FetchedRecord], plan, store, env);
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    out.map((r) => [r.topic, r.key?.toString(), r.value?.toString(), r.timestamp]),
    [['in-dlq', 'k1', 'line', BigInt(T0 + 1)]],
  );
  const headers = Object.fromEntries(
    [...(out[0]!.headers as Map<Buffer, Buffer>)].map(([k, v]) => [k.toString(), v.toString()]),
  );
  assert.equal(headers['weir.source'], 'in/0/42');
  assert.equal(
    headers['weir.error'],
    `APPLY_RULES: suppression: an alert came without its alert to window ["ann"]@${T0}, which is not open`,
  );
});
