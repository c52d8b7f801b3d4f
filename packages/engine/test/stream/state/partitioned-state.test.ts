import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compile, type JsonObject } from '@weir/pdl';
import type { OutgoingRecord } from '../../../src/stream/records.ts';
import { PartitionedStateStore } from '../../../src/stream/state/partitioned-state.ts';

const T0 = Date.UTC(2023, 4, 1);
const RULE = 'event_count timespan=10m group_by user reset=false where _aggregation.value >= 3';
const value = (o: JsonObject) => (o['_aggregation'] as JsonObject)['value'];

/** Feeds events to a program on one partition of a store and returns the aggregation values emitted. */
function feed(store: PartitionedStateStore, partition: number, users: string[], t: number): unknown[] {
  const program = compile(RULE, { stateStore: store, stateId: 'rule:r' });
  store.select('rep', partition);
  const out = users.flatMap((user, i) => program.feed({ user, _time: t + i }));
  store.deselect();
  return out.map(value);
}

/** Replays changelog records into a fresh store's partition, as a worker does on assignment. */
function restoreFrom(records: OutgoingRecord[], partition: number): PartitionedStateStore {
  const store = new PartitionedStateStore();
  store.open('rep', partition, 'chg');
  for (const r of records) if (r.partition === partition) store.restore('rep', partition, r.key!, r.value ?? null);
  return store;
}

describe('PartitionedStateStore: state per partition, backed by a changelog', () => {
  test('groups and stream time of one partition are invisible to another', () => {
    const store = new PartitionedStateStore();
    store.open('rep', 0, 'chg');
    store.open('rep', 1, 'chg');
    assert.deepEqual(feed(store, 0, ['a', 'a'], T0), []);
    assert.deepEqual(feed(store, 1, ['a', 'a'], T0 + 3_600_000), []); // an hour later, elsewhere
    assert.deepEqual(feed(store, 0, ['a'], T0 + 10), [3]); // partition 0's window is intact
  });

  test('drain writes every change to the changelog partition; a restore from it continues the windows', () => {
    const store = new PartitionedStateStore();
    store.open('rep', 2, 'chg');
    feed(store, 2, ['a', 'a', 'b'], T0);
    const log: OutgoingRecord[] = [];
    store.drain(log);
    assert.ok(log.every((r) => r.topic === 'chg' && r.partition === 2));
    assert.deepEqual(
      log.map((r) => JSON.parse(r.key!.toString())).sort(),
      [['rule:r#0'], ['rule:r#0', '["a"]'], ['rule:r#0', '["b"]']].sort(),
    );
    const drainedAgain: OutgoingRecord[] = [];
    store.drain(drainedAgain);
    assert.deepEqual(drainedAgain, []); // only changes are written
    const restored = restoreFrom(log, 2);
    assert.deepEqual(feed(restored, 2, ['a', 'b'], T0 + 100), [3]);
    restored.select('rep', 2);
    assert.equal(restored.clock('rule:r#0').time, T0 + 101);
  });

  test('a group that is gone is a tombstone; restoring it forgets the group', () => {
    const store = new PartitionedStateStore();
    store.open('rep', 0, 'chg');
    const program = compile('event_count timespan=1m group_by user emit=close', {
      stateStore: store,
      stateId: 'rule:c',
    });
    store.select('rep', 0);
    program.feed({ user: 'a', _time: T0 });
    const log: OutgoingRecord[] = [];
    store.drain(log);
    assert.deepEqual(program.feed({ user: 'b', _time: T0 + 120_000 }).map(value), [1]); // closes a's window
    store.drain(log);
    const tombstone = log.find((r) => r.key!.toString() === JSON.stringify(['rule:c#0', '["a"]']) && r.value === null);
    assert.ok(tombstone, 'the closed group is written as a tombstone');
    const restored = restoreFrom(log, 0);
    restored.select('rep', 0);
    assert.equal(restored.size('rule:c#0'), 1);
    assert.deepEqual(
      [...restored.entries('rule:c#0')].map(([k]) => k),
      ['["b"]'],
    );
  });

  test('every correlation function continues its windows after a changelog round trip', () => {
    // Feeds the events to a program on partition 0; with `split`, the first `split` events go to one
    // store, whose changelog restores a fresh store (a new owner) that takes the rest.
    const run = (pdl: string, events: JsonObject[], split: number): JsonObject[] => {
      const first = new PartitionedStateStore();
      first.open('rep', 0, 'chg');
      first.select('rep', 0);
      const before = compile(pdl, { stateStore: first, stateId: 'rule:f' });
      const out = events.slice(0, split).flatMap((e) => before.feed(e));
      first.deselect();
      const log: OutgoingRecord[] = [];
      first.drain(log);
      const restored = restoreFrom(log, 0);
      restored.select('rep', 0);
      const program = compile(pdl, { stateStore: restored, stateId: 'rule:f' });
      return [...out, ...events.slice(split).flatMap((e) => program.feed(e))];
    };
    const events: JsonObject[] = ['a', 'a', 'a', 'a', 'b', 'a', 'c', 'b'].map((img, i) => ({
      host: 'h',
      img,
      n: i + 1,
      _time: T0 + i,
    }));
    events.push({ host: 'z', img: 'a', n: 1, _time: T0 + 7_200_000 }); // closes h's emit=close windows
    const rules = [
      'event_count timespan=1h group_by host where _aggregation.value >= 6',
      'value_count(img) timespan=1h group_by host where _aggregation.value >= 3',
      'value_sum(n) timespan=1h group_by host where _aggregation.value >= 20',
      'value_avg(n) timespan=1h group_by host emit=close where _aggregation.value <= 5',
      'value_percentile(img) timespan=1h group_by host where _aggregation.value <= 25',
      'value_percentile(img) timespan=1h group_by host emit=close where _aggregation.value <= 25',
      'temporal [ img="a" AS a || img="c" AS c ] timespan=1h group_by host',
    ];
    for (const pdl of rules) {
      const whole = run(pdl, events, events.length);
      assert.ok(whole.length >= 1, `${pdl}: emits`);
      assert.deepEqual(run(pdl, events, 4), whole, pdl);
    }
  });

  test('a dropped partition loses its state (its next owner restores it)', () => {
    const store = new PartitionedStateStore();
    store.open('rep', 0, 'chg');
    feed(store, 0, ['a'], T0);
    store.drop('rep', 0);
    assert.equal(store.has('rep', 0), false);
    assert.equal(store.select('rep', 0), false);
    assert.equal(store.groups(), 0);
  });
});
