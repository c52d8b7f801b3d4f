import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { RuleBook } from '../../src/rules/rule-book.ts';
import { suppressionId } from '../../src/rules/rule-suppression.ts';
import { suppressionStage } from '../../src/tasks/suppression-stage.ts';
import type { RoutedRecord, TaskResult } from '../../src/tasks/task-function.ts';
import { T0, makeTask } from './task-harness.ts';

const rules: StoredRule[] = [
  {
    id: 'login',
    name: 'Login',
    pdl: 'action="login"',
    enabled: true,
    suppression: { fields: ['user'], window: '1m' },
  },
  {
    id: 'burst',
    name: 'Burst',
    pdl: 'action="login" | event_count timespan=1m group_by user emit=close where _aggregation.value >= 2',
    enabled: true,
    suppression: { fields: ['user'], window: '10m' },
  },
  { id: 'plain', name: 'Plain', pdl: 'action="login"', enabled: true },
];

function setup(listed: string[], routeCorrelations = true) {
  const book = new RuleBook();
  book.update(rules, { get: () => undefined });
  const suppressed: string[] = [];
  const task = makeTask(
    'APPLY_RULES',
    { rules: listed, matchAll: true },
    {
      rules: book,
      routeCorrelations,
      counters: { ruleSuppressed: (_t, id, outcome) => suppressed.push(`${id}:${outcome}`) },
    },
  );
  return { task, suppressed };
}

const routesOf = (r: TaskResult): readonly RoutedRecord[] => (r.kind === 'error' ? [] : (r.routes ?? []));
const shape = (r: TaskResult) =>
  r.kind === 'alerts'
    ? {
        records: r.records.map((a) => [
          (a.value as Record<string, unknown>)['n'],
          a.alertOverride?.id,
          a.alertOverride?.suppression.count,
        ]),
        updates: (r.updates ?? []).map((a) => [
          (a.value as Record<string, unknown>)['n'],
          a.alertOverride?.id,
          a.alertOverride?.suppression.count,
        ]),
      }
    : r.kind;

test('in the engine, a suppressed rule routes its alert by the suppression fields; resumed there it is kept once per window, then counted', () => {
  const { task, suppressed } = setup(['login', 'plain']);
  const event = (n: number, t: number) => ({ action: 'login', user: 'ann', n, _time: t });
  const first = task.run({ value: event(1, T0), timestamp: T0 });
  // the plain rule's alert is written here; the suppressed rule's goes to its window's partition
  assert.equal(first.kind === 'alerts' ? first.records.map((r) => r.rule?.id).join() : '', 'plain');
  const [routed] = routesOf(first);
  const start = T0 - (T0 % 60_000);
  assert.deepEqual(
    { ...routed, event: undefined },
    {
      stage: 'rule:login',
      pdlStage: suppressionStage,
      key: '["ann"]',
      event: undefined,
      time: T0,
      timestamp: T0,
      // alerts of one batch may travel together; one behind an alert of its window, without its alert
      bundle: { group: '["user"]/60000', window: `["ann"]@${start}`, closeFloor: start + 120_000 },
    },
  );
  assert.deepEqual(routed!.event['_rule'], { id: 'login', name: 'Login', annotations: [] });
  assert.equal(task.holdsCorrelation?.(), true);
  const id = suppressionId('login', '["ann"]', start);
  assert.deepEqual(shape(task.resume!(routed!)), { records: [[1, id, 0]], updates: [] });
  const second = routesOf(task.run({ value: event(2, T0 + 1), timestamp: T0 + 1 }))[0]!;
  assert.equal(task.resume!(second).kind, 'records'); // counted: nothing goes on
  assert.deepEqual(suppressed, ['login:suppressed']);
  // two windows on (end + one window): the stage closes the window with its count
  const later = routesOf(task.run({ value: event(3, start + 120_000), timestamp: T0 }))[0]!;
  assert.deepEqual(shape(task.resume!(later)), {
    records: [[3, suppressionId('login', '["ann"]', start + 120_000), 0]],
    updates: [[1, id, 1]],
  });
});

test("a correlation rule's alerts go on to their suppression windows, also those the idle close emits; the idle close closes windows", () => {
  const { task } = setup(['burst']);
  const e = (t: number) => ({ action: 'login', user: 'bob', _time: t });
  const toStage = (t: number) => routesOf(task.run({ value: e(t), timestamp: t }))[0]!;
  const t0 = T0 - (T0 % 600_000); // the start of a 10-minute suppression window
  assert.equal(toStage(t0).pdlStage, 1);
  task.resume!(toStage(t0));
  task.resume!(toStage(t0 + 1));
  const closing = task.resume!(toStage(t0 + 120_000)); // closes the count window of t0
  const [first] = routesOf(closing);
  assert.deepEqual([first?.pdlStage, first?.key], [suppressionStage, '["bob"]']);
  assert.equal((first?.event['_aggregation'] as { value: number }).value, 2);
  const id = suppressionId('burst', '["bob"]', t0);
  assert.deepEqual(shape(task.resume!(first!)), { records: [[undefined, id, 0]], updates: [] });
  task.resume!(toStage(t0 + 120_001));
  // the idle close closes the second count window: its alert is routed too, and counted there
  const idle = task.advanceBy!(61_000);
  const [second] = routesOf(idle);
  assert.equal(second?.pdlStage, suppressionStage);
  assert.equal(task.resume!(second!).kind, 'records');
  // an hour on, the suppression window closes: its update record, for the alerts topic only
  assert.deepEqual(shape(task.advanceBy!(3_600_000)), { records: [], updates: [[undefined, id, 1]] });
});

test('outside the engine (the test endpoints) a suppressed rule raises its alert as it is', () => {
  const { task } = setup(['login'], false);
  const result = task.run({ value: { action: 'login', user: 'ann' }, timestamp: T0 });
  assert.deepEqual(shape(result), { records: [[undefined, undefined, undefined]], updates: [] });
  assert.equal(routesOf(result).length, 0);
});

test('a routed alert of a rule that lost its suppression meanwhile is written as it is', () => {
  const book = new RuleBook();
  book.update(rules, { get: () => undefined });
  const task = makeTask('APPLY_RULES', { rules: ['login'] }, { rules: book, routeCorrelations: true });
  const routed = routesOf(task.run({ value: { action: 'login', user: 'ann', n: 7 }, timestamp: T0 }))[0]!;
  book.update([{ ...rules[0]!, suppression: undefined } as StoredRule], { get: () => undefined });
  assert.deepEqual(shape(task.resume!(routed)), { records: [[7, undefined, undefined]], updates: [] });
});

test('an alert that came without its alert (a bundle) is counted; when the rule lost or changed its suppression on the way, counted as suppressed; one that needs it is refused', () => {
  const book = new RuleBook();
  book.update(rules, { get: () => undefined });
  const suppressed: string[] = [];
  const task = makeTask(
    'APPLY_RULES',
    { rules: ['login'] },
    {
      rules: book,
      routeCorrelations: true,
      counters: { ruleSuppressed: (_t, id, outcome) => suppressed.push(`${id}:${outcome}`) },
    },
  );
  const routeOf = (n: number) =>
    routesOf(task.run({ value: { action: 'login', user: 'ann', n, _time: T0 + n }, timestamp: T0 }))[0]!;
  const origin = (offset: number) => ({ topic: 'in', partition: 0, offset });
  const bare = (r: RoutedRecord, offset: number): RoutedRecord => ({
    ...r,
    event: {},
    origin: origin(offset),
    elided: { group: r.bundle!.group },
  });
  // its window is not open: it cannot be written without its alert
  const refused = task.resume!(bare(routeOf(1), 1));
  assert.deepEqual(
    refused.kind === 'error' && refused.message,
    `suppression: an alert came without its alert to window ["ann"]@${T0 - (T0 % 60_000)}, which is not open`,
  );
  const id = suppressionId('login', '["ann"]', T0 - (T0 % 60_000));
  assert.deepEqual(shape(task.resume!({ ...routeOf(2), origin: origin(2) })), { records: [[2, id, 0]], updates: [] });
  assert.equal(task.resume!(bare(routeOf(3), 3)).kind, 'records');
  const [fourth, fifth] = [bare(routeOf(4), 4), bare(routeOf(5), 5)]; // routed under the 1-minute window
  book.update([{ ...rules[0]!, suppression: { fields: ['user'], window: '5m' } }], { get: () => undefined });
  assert.equal(task.resume!(fourth).kind, 'records');
  book.update([{ ...rules[0]!, suppression: undefined } as StoredRule], { get: () => undefined });
  assert.equal(task.resume!(fifth).kind, 'records');
  assert.deepEqual(suppressed, ['login:suppressed', 'login:suppressed', 'login:suppressed']);
});
