import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import type { FetchedRecord, OutgoingRecord } from '../../../src/stream/records.ts';
import { StageState, type StageStateOptions } from '../../../src/stream/state/stage-state.ts';
import type { StageBinding, StreamPlan } from '../../../src/stream/topology-plan.ts';

const rep = 'g-t-1-task0-repartition';
const chg = 'g-t-1-task0-changelog';
const T0 = Date.UTC(2023, 4, 1);

/** A plan with one stage on `rep` whose task moves with the clock (advanceBy) or not. */
function plan(advances = true): StreamPlan {
  const task = advances ? { advanceBy: () => ({}) } : {};
  const stage = {
    topology: { tasks: [task] },
    taskIndex: 0,
    topics: { repartition: rep, changelog: chg },
  } as unknown as StageBinding;
  return { version: 1, byInput: new Map(), inputTopics: [], outputTopics: [], stages: new Map([[rep, stage]]) };
}

/** A changelog per partition, read by a fake restore. */
function state(changelogs: Record<number, OutgoingRecord[]>, more: Partial<StageStateOptions> = {}) {
  const logs: string[] = [];
  const reads: string[] = [];
  const s = new StageState({
    connection: { bootstrapBrokers: [] },
    clientId: 'c',
    groupId: 'g',
    guarantee: 'exactly_once_v2',
    worker: 'stream worker 0',
    onLog: (level, m) => logs.push(`${level} ${m.replace(/ in \d+ ms$/, '')}`),
    readChangelog: (_consumer, topic, partition, readCommitted, apply) => {
      reads.push(`${topic}-${partition}${readCommitted ? ' read_committed' : ''}`);
      const records = changelogs[partition] ?? [];
      for (const r of records) apply(r.key!, r.value ?? null);
      return Promise.resolve(records.length);
    },
    ...more,
  });
  return { state: s, logs, reads };
}

/** Three events of one group on partition `p` of a store: the changelog they leave. */
function changelogOf(p: number): OutgoingRecord[] {
  const { state: s } = state({});
  s.store.open(rep, p, chg);
  const program = compile('event_count timespan=10m group_by user reset=false where _aggregation.value >= 9', {
    stateStore: s.store,
    stateId: 'rule:r',
  });
  s.select(rep, p);
  for (let i = 0; i < 3; i++) program.feed({ user: 'a', _time: T0 + i });
  s.deselect();
  const out: OutgoingRecord[] = [];
  s.drain(out);
  return out;
}

test('assigned stage partitions are restored from their changelogs once, before their records', async () => {
  const { state: s, logs, reads } = state({ 1: changelogOf(1) });
  const assignments = [
    { topic: 'in', partitions: [0] },
    { topic: rep, partitions: [0, 1] },
  ];
  await s.restore(assignments, plan());
  await s.restore(assignments, plan());
  assert.deepEqual(reads, [`${chg}-0 read_committed`, `${chg}-1 read_committed`]);
  assert.deepEqual(logs, [
    `info restored 0 changelog record(s) of ${chg}-0`,
    `info restored 2 changelog record(s) of ${chg}-1`,
  ]);
  assert.deepEqual([s.store.has(rep, 1), s.store.has('in', 0)], [true, false]);
  s.select(rep, 1);
  assert.equal(s.store.groups(), 1);
});

test('a restore that fails leaves its partition closed (restored again next time) and throws', async () => {
  const { state: s } = state({}, { readChangelog: () => Promise.reject(new Error('no leader')) });
  await assert.rejects(s.restore([{ topic: rep, partitions: [0] }], plan()), /no leader/);
  assert.equal(s.store.has(rep, 0), false);
});

test('partitions that left are dropped; a rollback drops every partition', async () => {
  const { state: s } = state({});
  await s.restore([{ topic: rep, partitions: [0, 1] }], plan());
  s.retainOnly(new Set([`${rep}\u00001`]));
  assert.deepEqual([s.store.has(rep, 0), s.store.has(rep, 1)], [false, true]);
  s.rollBack();
  assert.equal(s.store.has(rep, 1), false);
});

test('the idle clock: partitions idle for the setting tick, once per step, and a record starts them over', async () => {
  const { state: s } = state({});
  await s.restore([{ topic: rep, partitions: [0, 1] }], plan());
  const now = Date.now();
  assert.deepEqual(s.ticks(plan(), now, 60_000), []);
  const later = now + 60_000;
  s.active(
    [{ topic: rep, partition: 1 } as FetchedRecord, { topic: 'in', partition: 0 } as FetchedRecord],
    plan().stages,
    later,
  );
  const ticks = s.ticks(plan(), later, 60_000);
  assert.deepEqual(
    ticks.map((t) => [t.partition, t.idleFor >= 60_000]),
    [[0, true]],
  );
  assert.deepEqual(
    s.ticks(plan(), later + 1000, 60_000).map((t) => [t.partition, t.idleFor]),
    [[0, 1000]],
  );
  assert.deepEqual(
    s.ticks(plan(false), later + 120_000, 60_000),
    [],
    'a stage whose task does not move with the clock',
  );
});

test('close ends the restore consumer it opened; a late restore changes nothing', async () => {
  let late: (() => void) | undefined;
  const { state: s } = state(
    {},
    {
      readChangelog: (_c, _t, _p, _rc, apply) =>
        new Promise((resolve) => {
          late = () => {
            apply(Buffer.from('["rule:r"]'), Buffer.from('{"time":5}'));
            resolve(1);
          };
        }),
    },
  );
  const restoring = s.restore([{ topic: rep, partitions: [0] }], plan());
  await new Promise((r) => setImmediate(r));
  await s.close();
  late!();
  await restoring;
  s.select(rep, 0);
  assert.equal(s.store.clock('rule:r').time, -Infinity);
});
