import assert from 'node:assert/strict';
import type { AlertMetadata } from '@weir/contract';
import { test } from 'node:test';
import type { ConfigSnapshot } from '../../../src/stream/config-snapshot.ts';
import { metricNames } from '../../../src/stream/metric-names.ts';
import { decodeRouted, partitionOf } from '../../../src/stream/process/repartition-records.ts';
import {
  processBatch,
  processInput,
  processTicks,
  type ProcessEnv,
} from '../../../src/stream/process/record-processor.ts';
import type { FetchedRecord, OutgoingRecord } from '../../../src/stream/records.ts';
import { LookupTables } from '../../../src/rules/lookup-tables.ts';
import { RuleBook } from '../../../src/rules/rule-book.ts';
import { PartitionedStateStore } from '../../../src/stream/state/partitioned-state.ts';
import { buildPlan, TaskCache, type StreamPlan } from '../../../src/stream/topology-plan.ts';
import { WorkerStats } from '../../../src/stream/worker-stats.ts';

/** An alerts-topic record's value as a test reads it. */
type AlertValue = Record<string, unknown> & { _alert: AlertMetadata };

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });
const T0 = Date.UTC(2023, 4, 1);
const correlation = 'event_count timespan=10m group_by user where _aggregation.value >= 2';
const repartition = 'g-t1-1-task1-repartition';

/** A plan of one topology `t1` reading `in` and writing `out`, with the tasks given. */
function plan(tasks: ConfigSnapshot['tasks'], state?: PartitionedStateStore, more: Partial<ConfigSnapshot> = {}) {
  const snapshot: ConfigSnapshot = {
    version: 1,
    topologies: [
      { id: 1, name: 't1', pipelines: [10], enabled: true, group: 'default', input: json('in'), output: [json('out')] },
    ],
    pipelines: [{ id: 10, name: 'p', tasks: tasks.map((t) => t.id) }],
    tasks,
    rules: [],
    ...more,
  };
  const lookups = new LookupTables();
  const rules = new RuleBook();
  rules.update(snapshot.rules, lookups);
  return buildPlan(snapshot, { group: 'default', groupId: 'g', rules, lookups, stateStore: state }, new TaskCache());
}

const fetched = (topic: string, offset: number, value: string | undefined, key = 'k'): FetchedRecord =>
  ({
    topic,
    partition: 0,
    offset: BigInt(offset),
    key: Buffer.from(key),
    value: value === undefined ? undefined : Buffer.from(value),
    timestamp: BigInt(T0 + offset),
  }) as FetchedRecord;

const env = (stagePartitions = new Map<string, number>()): ProcessEnv => ({
  alertsTopic: 'alerts',
  stats: new WorkerStats(),
  stagePartitions,
});

const noState = { select: () => false, deselect: () => {} };
const text = (records: OutgoingRecord[]) => records.map((r) => [r.topic, r.value?.toString() ?? null]);
const counters = (e: ProcessEnv) => e.stats.drain().counters;

test('an input record runs through its topology to the outputs, with its key and its event time', () => {
  const p = plan([
    { id: 1, name: 'set', function: 'EVAL', definition: { eval: [{ action: 'set', field: 'b', value: '"2"' }] } },
  ]);
  const e = env();
  const { out, warnings } = processBatch([fetched('in', 5, '{"a":1}')], p, noState, e);
  assert.deepEqual(text(out), [['out', '{"a":1,"b":"2","_time":1682899200005}']]);
  assert.deepEqual([out[0]!.key?.toString(), out[0]!.timestamp], ['k', BigInt(T0 + 5)]);
  assert.deepEqual(warnings, []);
  assert.deepEqual(counters(e), [
    [metricNames.recordsIn, ['t1'], 1],
    [metricNames.recordsOut, ['t1', 'out'], 1],
  ]);
});

test('a tombstone is counted as skipped; a record of a topic no topology reads is passed over', () => {
  const p = plan([]);
  const e = env();
  assert.deepEqual(processBatch([fetched('in', 1, undefined), fetched('other', 2, 'x')], p, noState, e).out, []);
  assert.deepEqual(counters(e), [[metricNames.skipped, ['in', 'tombstone'], 1]]);
});

test('a failing task sends the input record, untouched, to the dead-letter topic with its cause', () => {
  const p = plan([{ id: 1, name: 'filter', function: 'FILTER', definition: { type: 'pdl', value: 'a="x"' } }]);
  const e = env();
  const out: OutgoingRecord[] = [];
  processInput(fetched('in', 7, 'not json'), p.byInput.get('in')!, e, out);
  assert.deepEqual(text(out), [['in-dlq', 'not json']]);
  const headers = Object.fromEntries(
    [...(out[0]!.headers as Map<Buffer, Buffer>)].map(([k, v]) => [k.toString(), v.toString()]),
  );
  assert.equal(headers['weir.source'], 'in/0/7');
  assert.deepEqual([headers['weir.topology'], headers['weir.task']], ['t1', 'filter']);
});

/** A stage topology: a PDL correlation on `user`, state in `store`. */
function stagePlan(store: PartitionedStateStore): StreamPlan {
  return plan([{ id: 1, name: 'corr', function: 'PDL_EXPRESSION', definition: { pdl: correlation } }], store);
}

test('a record reaching a stage is routed to its repartition topic, to the partition of its group', () => {
  const p = stagePlan(new PartitionedStateStore());
  assert.deepEqual([...p.stages.keys()], [repartition]);
  const { out } = processBatch([fetched('in', 1, '{"user":"alice"}')], p, noState, env(new Map([[repartition, 4]])));
  assert.equal(out.length, 1);
  const routed = decodeRouted(out[0]!.value!, out[0]!.key, 0);
  assert.deepEqual([out[0]!.topic, out[0]!.partition], [repartition, partitionOf(routed.routed.key, 4)]);
  assert.equal(routed.sourceKey?.toString(), 'k');
  assert.deepEqual([routed.origin?.topic, routed.origin?.offset], ['in', 1n]);
});

test('routed records continue at their stage with the state of their partition; without a repartition topic, in place', () => {
  const store = new PartitionedStateStore();
  const p = stagePlan(store);
  const e = env(new Map([[repartition, 1]]));
  const routed = processBatch([fetched('in', 1, '{"user":"a"}'), fetched('in', 2, '{"user":"a"}')], p, noState, e).out;
  store.open(repartition, 0, 'g-t1-1-task1-changelog');
  const asFetched = routed.map((r, i) => ({ ...r, offset: BigInt(i), timestamp: r.timestamp! }) as FetchedRecord);
  const { out } = processBatch(asFetched, p, store, e);
  assert.deepEqual(
    out.map((r) => [
      r.topic,
      (JSON.parse(r.value!.toString()) as { _aggregation: { value: number } })._aggregation.value,
    ]),
    [['out', 2]],
  );
  const changelog: OutgoingRecord[] = [];
  store.drain(changelog);
  assert.ok(changelog.every((r) => r.topic === 'g-t1-1-task1-changelog') && changelog.length > 0);

  // no partition count known for the stage: the correlation runs where the record is
  const inPlace = processBatch(
    [fetched('in', 1, '{"user":"b"}'), fetched('in', 2, '{"user":"b"}')],
    stagePlan(new PartitionedStateStore()),
    noState,
    env(),
  ).out;
  assert.deepEqual(
    text(inPlace).map(([topic]) => topic),
    ['out'],
  );
});

test('a repartition record that is not one is skipped with a warning naming it', () => {
  const e = env(new Map([[repartition, 1]]));
  const { out, warnings } = processBatch(
    [fetched(repartition, 3, '{"x":1}')],
    stagePlan(new PartitionedStateStore()),
    noState,
    e,
  );
  assert.deepEqual(out, []);
  assert.deepEqual(warnings, [`${repartition}/0/3: not a Weir repartition record`]);
  assert.deepEqual(counters(e), [[metricNames.skipped, [repartition, 'decode'], 1]]);
});

test('a clock tick moves a stage partition on; partitions of no stage are passed over', () => {
  const store = new PartitionedStateStore();
  const p = plan(
    [
      {
        id: 1,
        name: 'corr',
        function: 'PDL_EXPRESSION',
        definition: { pdl: 'event_count timespan=1m group_by user emit=close' },
      },
    ],
    store,
  );
  const e = env(new Map([[repartition, 1]]));
  store.open(repartition, 0, 'chg');
  const routed = processBatch([fetched('in', 1, '{"user":"a"}')], p, noState, e).out;
  processBatch([{ ...routed[0]!, offset: 0n, timestamp: routed[0]!.timestamp! } as FetchedRecord], p, store, e);
  assert.deepEqual(processTicks([{ topic: 'other', partition: 0, idleFor: 3_600_000 }], p, store, e), []);
  const closed = processTicks([{ topic: repartition, partition: 0, idleFor: 3_600_000 }], p, store, e);
  assert.deepEqual(
    closed.map((r) => r.topic),
    ['out'],
  );
});

test('an alert on the alerts topic carries `_alert`: a deterministic id, severity, techniques, event time and its source record', () => {
  const rules: ConfigSnapshot['rules'] = [
    { id: 'r1', name: 'R1', pdl: 'a=1', annotations: ['attack.t1110.001', 'T1078'], severity: 'high', enabled: true },
    { id: 'r2', name: 'R2', pdl: 'a=1', annotations: ['sigma.level=low'], enabled: true },
  ];
  const applyRules = [{ id: 1, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['r1', 'r2'] } }];
  const run = (offset: number) => {
    const { out } = processBatch(
      [fetched('in', offset, '{"a":1,"_time":1000}')],
      plan(applyRules, undefined, { rules }),
      noState,
      env(),
    );
    return out.filter((r) => r.topic === 'alerts').map((r) => JSON.parse(r.value!.toString()) as AlertValue);
  };
  const [a1, a2] = run(7);
  assert.deepEqual(Object.keys(a1!), ['a', '_time', '_rule', '_alert']);
  assert.deepEqual(
    { ...a1!._alert, id: typeof a1!._alert.id },
    {
      id: 'string',
      severity: 'high',
      techniques: ['T1110.001', 'T1078'],
      time: 1000,
      source: { topic: 'in', partition: 0, offset: 7 },
    },
  );
  assert.match(a1!._alert.id, /^[0-9a-f]{32}$/);
  // no severity of its own: the Sigma level annotation of an earlier import; no technique
  assert.deepEqual([a2!._alert.severity, a2!._alert.techniques], ['low', []]);
  // the same record and rules again (a replay, another node): the same ids; another record: others
  const again = run(7);
  assert.deepEqual(
    again.map((a) => a._alert.id),
    [a1!._alert.id, a2!._alert.id],
  );
  assert.notEqual(a1!._alert.id, a2!._alert.id);
  const other = run(8);
  assert.ok(other.every((a, i) => a._alert.id !== [a1, a2][i]!._alert.id));
  // the topology's output keeps the alert as pdl.md shows it: no `_alert`
  const { out } = processBatch([fetched('in', 7, '{"a":1}')], plan(applyRules, undefined, { rules }), noState, env());
  assert.ok(out.filter((r) => r.topic === 'out').every((r) => !r.value!.toString().includes('_alert')));
});
