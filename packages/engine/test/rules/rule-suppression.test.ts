import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryCorrelationStateStore } from '@weir/pdl';
import {
  RuleSuppression,
  suppressionId,
  type OfferedAlert,
  type SuppressionRecord,
} from '../../src/rules/rule-suppression.ts';

const T = Date.UTC(2019, 0, 1); // a whole number of minutes
const min = 60_000;

function alertAt(time: number, user: unknown, offset: number, extra: Record<string, unknown> = {}): OfferedAlert {
  const alert: Record<string, unknown> = { _time: time, n: offset, ...extra };
  if (user !== undefined) alert['user'] = { name: user };
  return { alert, time, timestamp: time, source: { topic: 'in', partition: 0, offset } };
}

/** Feeds alerts in order; what is written: kept records (`at once`) and update records, and the last outcome kinds. */
function feed(s: RuleSuppression, alerts: readonly OfferedAlert[]) {
  const written: { kind: string; record: SuppressionRecord }[] = [];
  const kinds: string[] = [];
  for (const a of alerts) {
    const offer = s.offer(a);
    kinds.push(offer.kind);
    for (const u of offer.updates) written.push({ kind: 'update', record: u });
    if (offer.kind === 'kept') written.push({ kind: 'kept', record: offer.record });
  }
  return { written, kinds };
}

test('the first alert of a window is kept, the rest counted; the window closes one window after its end with the earliest alert and the count', () => {
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '5m' }, new InMemoryCorrelationStateStore());
  const { written, kinds } = feed(s, [
    alertAt(T + 2 * min, 'alice', 1),
    alertAt(T + 1 * min, 'alice', 2), // earlier, arrived later: counted, becomes the representative
    alertAt(T + 3 * min, 'bob', 3),
    alertAt(T + 4 * min, 'alice', 4),
    alertAt(T + 9 * min, 'alice', 5), // next window [5m, 10m): kept; stream time 9m closes nothing yet
    alertAt(T + 10 * min, 'carol', 6), // stream time 10m = end + window of [0, 5m): it closes
  ]);
  assert.deepEqual(kinds, ['kept', 'suppressed', 'kept', 'suppressed', 'kept', 'kept']);
  const id = suppressionId('r', '["alice"]', T);
  assert.deepEqual(
    written.map((w) => [w.kind, w.record.value['n'], w.record.override]),
    [
      [
        'kept',
        1,
        {
          id,
          suppression: {
            count: 0,
            firstSeen: T + 2 * min,
            lastSeen: T + 2 * min,
            fields: { 'user.name': 'alice' },
            window: { start: T, end: T + 5 * min },
          },
        },
      ],
      [
        'kept',
        3,
        {
          id: suppressionId('r', '["bob"]', T),
          suppression: {
            count: 0,
            firstSeen: T + 3 * min,
            lastSeen: T + 3 * min,
            fields: { 'user.name': 'bob' },
            window: { start: T, end: T + 5 * min },
          },
        },
      ],
      [
        'kept',
        5,
        {
          id: suppressionId('r', '["alice"]', T + 5 * min),
          suppression: {
            count: 0,
            firstSeen: T + 9 * min,
            lastSeen: T + 9 * min,
            fields: { 'user.name': 'alice' },
            window: { start: T + 5 * min, end: T + 10 * min },
          },
        },
      ],
      // bob's window suppressed nothing: no update record
      [
        'update',
        2,
        {
          id,
          source: { topic: 'in', partition: 0, offset: 2 },
          suppression: {
            count: 2,
            firstSeen: T + 1 * min,
            lastSeen: T + 4 * min,
            fields: { 'user.name': 'alice' },
            window: { start: T, end: T + 5 * min },
          },
        },
      ],
      [
        'kept',
        6,
        {
          id: suppressionId('r', '["carol"]', T + 10 * min),
          suppression: {
            count: 0,
            firstSeen: T + 10 * min,
            lastSeen: T + 10 * min,
            fields: { 'user.name': 'carol' },
            window: { start: T + 10 * min, end: T + 15 * min },
          },
        },
      ],
    ],
  );
});

test('an alert whose window closed already opens it again (late, same id); a missing field is the value null', () => {
  const s = new RuleSuppression(
    'r',
    { fields: ['user.name', 'host'], window: '1m' },
    new InMemoryCorrelationStateStore(),
  );
  const { written, kinds } = feed(s, [
    alertAt(T + 5 * min, undefined, 1),
    alertAt(T + 5 * min + 1, undefined, 2),
    alertAt(T + 3 * min, 'x', 3), // [3m, 4m) closed at stream time 5m: opened again, written
  ]);
  assert.deepEqual(kinds, ['kept', 'suppressed', 'kept']);
  assert.deepEqual(written[0]!.record.override.suppression.fields, { 'user.name': null, host: null });
  assert.equal(written[0]!.record.override.id, suppressionId('r', '[null,null]', T + 5 * min));
  // reopened: it closes one window after it opened (stream time 6m), counting what comes until then
  assert.equal(s.offer(alertAt(T + 3 * min + 5, 'x', 4)).kind, 'suppressed');
  assert.deepEqual(
    s.advanceBy(min).map((u) => [u.override.id, u.override.suppression.count]),
    [[suppressionId('r', '["x",null]', T + 3 * min), 1]],
  );
});

test('an input record read again (at-least-once, a replay of an open window) is not counted twice; its first alert is written again', () => {
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '1m' }, new InMemoryCorrelationStateStore());
  const { kinds } = feed(s, [
    alertAt(T, 'a', 10),
    alertAt(T + 1, 'a', 11),
    alertAt(T + 2, 'a', 12),
    alertAt(T + 1, 'a', 11), // read again
    alertAt(T, 'a', 10), // the first, read again: written again, same id and bytes
  ]);
  assert.deepEqual(kinds, ['kept', 'suppressed', 'suppressed', 'duplicate', 'kept']);
  const [update] = s.advanceBy(2 * min);
  assert.equal(update?.override.suppression.count, 2);
});

test('a window opened after stream time passed its close (a replay) closes one window later, with the same records', () => {
  const store = new InMemoryCorrelationStateStore();
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '1m' }, store);
  const burst = [alertAt(T, 'a', 1), alertAt(T + 5, 'a', 2), alertAt(T + 9, 'a', 3)];
  const live = feed(s, burst).written;
  const liveUpdates = s.advanceBy(10 * min);
  // the same records replayed: stream time is 10 minutes on now; the window opens late, stays open for the burst
  const offers = burst.map((a) => s.offer(a));
  assert.deepEqual(
    offers.map((o) => [o.kind, o.kind === 'kept' && o.late]),
    [
      ['kept', true],
      ['suppressed', false],
      ['suppressed', false],
    ],
  );
  const replayUpdates = s.advanceBy(min);
  assert.deepEqual(offers[0]!.kind === 'kept' && offers[0]!.record, live[0]!.record);
  assert.deepEqual(replayUpdates, liveUpdates);
  assert.equal(liveUpdates[0]?.override.suppression.count, 2);
});

test('whatever the arrival order, the same windows, ids, counts and update records', () => {
  const alerts: OfferedAlert[] = [];
  for (let i = 0; i < 60; i++) alerts.push(alertAt(T + i * 7_000, ['a', 'b', 'c'][i % 3], i));
  // from four input partitions, each in offset order
  for (const a of alerts) {
    const n = Number(a.alert!['n']);
    (a as { source: unknown }).source = { topic: 'in', partition: n % 4, offset: Math.floor(n / 4) };
  }
  const closing = alertAt(T + 60 * min, 'z', 999);
  const outcome = (order: readonly OfferedAlert[]) => {
    const s = new RuleSuppression('r', { fields: ['user.name'], window: '2m' }, new InMemoryCorrelationStateStore());
    const { written } = feed(s, [...order, closing]);
    return {
      ids: written
        .filter((w) => w.kind === 'kept')
        .map((w) => w.record.override.id)
        .sort(),
      updates: written
        .filter((w) => w.kind === 'update')
        .map((w) => w.record)
        .sort((x, y) => (x.override.id < y.override.id ? -1 : 1)),
    };
  };
  const inOrder = outcome(alerts);
  // read with delays of 0 to 90 s per input partition (less than a window: none is late)
  const arrival = (a: OfferedAlert) => a.time + a.source!.partition * 30_000;
  const shuffled = [...alerts].sort((x, y) => arrival(x) - arrival(y));
  assert.notDeepEqual(shuffled, alerts, 'another order');
  assert.deepEqual(outcome(shuffled), inOrder);
  // 60 alerts over 7 minutes in 2-minute windows, three users: 4 windows each, 12 kept (and the closing one), 48 counted
  assert.equal(inOrder.ids.length, 13);
  assert.equal(
    inOrder.updates.reduce((n, u) => n + u.override.suppression.count, 0),
    48,
  );
});

test('the idle close moves stream time on and closes the windows; the state is in the store it was given', () => {
  const store = new InMemoryCorrelationStateStore();
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '30s' }, store);
  assert.deepEqual(s.advanceBy(120_000), []); // nothing before the first alert
  feed(s, [alertAt(T, 'a', 1), alertAt(T + 1, 'a', 2)]);
  assert.equal(store.size('rule:r#suppression'), 1);
  assert.deepEqual(s.advanceBy(59_000), []);
  const updates = s.advanceBy(1_000);
  assert.deepEqual(
    updates.map((u) => [u.value['n'], u.override.suppression.count]),
    [[1, 1]],
  );
  assert.equal(store.size('rule:r#suppression'), 0);
});

test('a second instance on the same store (a restore) goes on where the first left', () => {
  const store = new InMemoryCorrelationStateStore();
  feed(new RuleSuppression('r', { fields: ['user.name'], window: '1h' }, store), [alertAt(T, 'a', 1)]);
  const again = new RuleSuppression('r', { fields: ['user.name'], window: '1h' }, store);
  assert.equal(again.offer(alertAt(T + 5, 'a', 2)).kind, 'suppressed');
  assert.equal(again.windowMs, 3_600_000);
});

test('the window keeps a copy of its earliest alert: later tasks that change the alert written at once do not change the update', () => {
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '1m' }, new InMemoryCorrelationStateStore());
  const first = alertAt(T, 'a', 1, { tags: ['x'] });
  const offer = s.offer(first);
  (offer.kind === 'kept' ? (offer.record.value['tags'] as string[]) : []).push('changed later');
  s.offer(alertAt(T + 1, 'a', 2));
  assert.deepEqual(s.advanceBy(2 * min)[0]?.value['tags'], ['x']);
});

/** An alert offered without its alert (a bundle member left out: stream/process/route-bundles.ts), with its key. */
const without = (a: OfferedAlert, values: string): OfferedAlert => ({ ...a, alert: undefined, values });

test('an alert offered without its alert is counted behind an alert of its open window; where it would need it, it is refused and nothing changes', () => {
  const store = new InMemoryCorrelationStateStore();
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '5m' }, store);
  assert.throws(() => s.offer(without(alertAt(T + min, 'ann', 1), '["ann"]')), /which is not open/);
  assert.equal(s.offer(alertAt(T + min, 'ann', 1)).kind, 'kept');
  assert.equal(s.offer(without(alertAt(T + 2 * min, 'ann', 2), '["ann"]')).kind, 'suppressed');
  assert.equal(s.offer(without(alertAt(T + 2 * min, 'ann', 2), '["ann"]')).kind, 'duplicate');
  const before = JSON.stringify([...store.entries('rule:r#suppression')]);
  // before the window's earliest alert: it would become the representative, so it needs its alert
  assert.throws(() => s.offer(without(alertAt(T + 30_000, 'ann', 3), '["ann"]')), /precedes window/);
  // stream time at the window's close: it is closed first, so the alert would open it again
  assert.throws(() => s.offer(without(alertAt(T + 10 * min, 'ann', 4), '["ann"]')), /not open/);
  assert.equal(JSON.stringify([...store.entries('rule:r#suppression')]), before);
  const { written } = feed(s, [alertAt(T + 10 * min, 'bob', 5)]);
  assert.deepEqual(
    written.map((w) => [w.kind, w.record.value['n'], w.record.override.suppression.count]),
    [
      ['update', 1, 1],
      ['kept', 5, 0],
    ],
  );
});

test("a window opened late keeps its lead's alert once an earlier one is its representative: its lead read again without it is written again as it was", () => {
  const store = new InMemoryCorrelationStateStore();
  const s = new RuleSuppression('r', { fields: ['user.name'], window: '1m' }, store);
  s.offer(alertAt(T + 10 * min, 'zed', 1)); // stream time 10m: [3m, 4m) closed long ago
  const lead = alertAt(T + 3 * min + 30_000, 'ann', 7, { note: 'lead' });
  const earlierOne = { ...alertAt(T + 3 * min + 10_000, 'ann', 3), source: { topic: 'in', partition: 1, offset: 3 } };
  assert.deepEqual(feed(s, [lead, earlierOne]).kinds, ['kept', 'suppressed']);
  const again = s.offer(without(lead, '["ann"]'));
  assert.equal(again.kind, 'kept');
  assert.deepEqual(again.kind === 'kept' && again.record.value, lead.alert);
  // a window opened in time keeps no copy: its lead cannot come without its alert (nothing of its window is ahead of it)
  const inTime = new RuleSuppression('q', { fields: ['user.name'], window: '1m' }, new InMemoryCorrelationStateStore());
  const first = alertAt(T + 30_000, 'ann', 7);
  assert.deepEqual(feed(inTime, [first, { ...earlierOne, time: T + 10_000 }]).kinds, ['kept', 'suppressed']);
  assert.throws(() => inTime.offer(without(first, '["ann"]')), /does not keep/);
});
