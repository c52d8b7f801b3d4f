import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryCorrelationStateStore, compile } from '../src/index.ts';
import { newStageClock } from '../src/index.ts';
import type { CorrelationGroupState, CorrelationStateStore, JsonObject, StageClock } from '../src/index.ts';

const T0 = 1_700_000_000_000;
const MIN = 60_000;

/** Feeds events and returns every output. */
function feedAll(pdl: string, events: JsonObject[], options = {}): JsonObject[] {
  const c = compile(pdl, options);
  return events.flatMap((e) => c.feed(e));
}

describe('event_count, emit=event (sliding window)', () => {
  const pdl = 'event_count timespan=5m group_by user where _aggregation.value >= 3';

  test('emits the documented event: group_by copied to top level, _time of the completing event', () => {
    const out = feedAll(pdl, [0, 1, 2, 3].map((i) => ({ user: 'alice', _time: T0 + i * 100 * 1000 })).slice(0, 3));
    assert.deepEqual(out, [
      {
        user: 'alice',
        _time: T0 + 200_000,
        _aggregation: {
          function: 'event_count',
          eventCount: 3,
          value: 3,
          groupBy: { user: 'alice' },
          window: { start: T0 + 200_000 - 5 * MIN, end: T0 + 200_000 },
        },
      },
    ]);
  });

  test('bounds are inclusive: t - timespan <= time <= t', () => {
    const at = (offsets: number[]) =>
      feedAll(
        pdl,
        offsets.map((o) => ({ user: 'a', _time: T0 + o })),
      );
    assert.equal(at([0, 1000, 5 * MIN]).length, 1); // the first event is exactly at t - timespan
    assert.equal(at([0, 1000, 5 * MIN + 1]).length, 0); // one millisecond later it has left the window
  });

  test('separate state per group; a missing group_by field is the null value', () => {
    const out = feedAll(pdl, [
      { user: 'alice', _time: T0 },
      { user: 'bob', _time: T0 + 1 },
      { user: 'alice', _time: T0 + 2 },
      { _time: T0 + 3 },
      { user: 'bob', _time: T0 + 4 },
      { user: null, _time: T0 + 5 },
      { _time: T0 + 6 },
    ]);
    assert.deepEqual(
      out.map((o) => [o['user'], o['_time']]),
      [[null, T0 + 6]],
    );
    assert.deepEqual((out[0]?.['_aggregation'] as JsonObject)['groupBy'], { user: null });
  });

  test('reset=true (default): a burst of k·N events gives k alerts', () => {
    const events = Array.from({ length: 9 }, (_, i) => ({ user: 'a', _time: T0 + i }));
    assert.equal(feedAll(pdl, events).length, 3);
  });

  test('reset=false: every event emits while the condition holds', () => {
    const events = Array.from({ length: 6 }, (_, i) => ({ user: 'a', _time: T0 + i }));
    const out = feedAll(`${pdl} reset=false`, events);
    assert.deepEqual(
      out.map((o) => (o['_aggregation'] as JsonObject)['value']),
      [3, 4, 5, 6],
    );
  });

  test('suppress silences a group after it emitted', () => {
    const c = compile(`${pdl} suppress=10m`);
    const times = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => T0 + i * 1000);
    const outs = times.flatMap((t) => c.feed({ user: 'a', _time: t }));
    assert.equal(outs.length, 1);
    assert.equal(c.feed({ user: 'b', _time: T0 + 10_000 }).length, 0); // other groups are not silenced
    // After the suppression, the group alerts again.
    const later = [0, 1, 2].flatMap((i) => c.feed({ user: 'a', _time: T0 + 2000 + 10 * MIN + i }));
    assert.equal(later.length, 1);
  });

  test('without where every event emits its count', () => {
    const out = feedAll('event_count timespan=1m', [{ _time: T0 }, { _time: T0 + 1 }]);
    assert.deepEqual(
      out.map((o) => (o['_aggregation'] as JsonObject)['value']),
      [1, 1],
    ); // reset after each emission
  });

  test('event time comes from _time, else from the record timestamp', () => {
    const c = compile('event_count timespan=1m reset=false where _aggregation.value >= 2');
    assert.deepEqual(c.feed({ x: 1 }, { timestamp: T0 }), []);
    const [out] = c.feed({ x: 2 }, { timestamp: T0 + 30_000 });
    assert.equal(out?.['_time'], T0 + 30_000);
    assert.deepEqual(c.feed({ x: 3 }, { timestamp: T0 + 3 * MIN }), []);
    assert.equal(c.feed({ x: 4, _time: T0 + 3 * MIN + 1 })[0]?.['_time'], T0 + 3 * MIN + 1);
  });
});

describe('emit=close', () => {
  const fewer = 'event_count timespan=5m group_by user emit=close where _aggregation.value < 3';

  test('evaluated once, when a later event passes the window close', () => {
    const c = compile(fewer);
    assert.deepEqual(c.feed({ user: 'a', _time: T0 }), []);
    assert.deepEqual(c.feed({ user: 'a', _time: T0 + 5 * MIN }), []); // exactly at the close: still inside
    assert.deepEqual(c.feed({ user: 'b', _time: T0 + 5 * MIN }), []);
    const out = c.feed({ user: 'b', _time: T0 + 5 * MIN + 1 }); // any later event of the stream closes it
    assert.deepEqual(out, [
      {
        user: 'a',
        _time: T0 + 5 * MIN,
        _aggregation: {
          function: 'event_count',
          eventCount: 2,
          value: 2,
          groupBy: { user: 'a' },
          window: { start: T0, end: T0 + 5 * MIN },
        },
      },
    ]);
    assert.deepEqual(c.feed({ user: 'b', _time: T0 + 6 * MIN }), []); // never twice
  });

  test('a condition that turned false again does not emit; "fewer than N" never means zero', () => {
    const c = compile(fewer);
    for (let i = 0; i < 4; i++) c.feed({ user: 'busy', _time: T0 + i });
    assert.deepEqual(c.advanceTime(T0 + 10 * MIN), []);
    assert.deepEqual(c.advanceTime(T0 + 20 * MIN), []); // no group, no event, no alert
  });

  test('advanceTime closes windows once wall-clock passes the close plus the allowed lateness', () => {
    const c = compile(fewer, { limits: { allowedLatenessMs: MIN } });
    c.feed({ user: 'a', _time: T0 });
    assert.deepEqual(c.advanceTime(T0 + 5 * MIN + 1), []); // within the lateness
    c.feed({ user: 'a', _time: T0 + 4 * MIN }); // a late-arriving event still counts
    const out = c.advanceTime(T0 + 6 * MIN + 1);
    assert.equal(out.length, 1);
    assert.equal((out[0]?.['_aggregation'] as JsonObject)['value'], 2);
    assert.deepEqual(c.advanceTime(T0 + 60 * MIN), []);
  });

  test('a new window opens at the first event after the close', () => {
    const c = compile('event_count timespan=1m group_by u emit=close');
    c.feed({ u: 1, _time: T0 });
    const out = c.feed({ u: 1, _time: T0 + 2 * MIN });
    assert.equal(out.length, 1);
    const flushed = c.advanceTime(T0 + 10 * MIN);
    assert.deepEqual((flushed[0]?.['_aggregation'] as JsonObject)['window'], {
      start: T0 + 2 * MIN,
      end: T0 + 3 * MIN,
    });
  });

  test('value_avg over a closed window (ranges read _aggregation.value)', () => {
    const c = compile(
      'value_avg(bytes) timespan=1m group_by host emit=close where _aggregation.value > 100 AND _aggregation.value <= 200',
    );
    c.feed({ host: 'h', bytes: 100, _time: T0 });
    c.feed({ host: 'h', bytes: '201', _time: T0 + 1000 });
    c.feed({ host: 'h', bytes: 'n/a', _time: T0 + 2000 });
    const [out] = c.advanceTime(T0 + 2 * MIN);
    assert.deepEqual(out?.['_aggregation'], {
      function: 'value_avg',
      field: 'bytes',
      value: 150.5,
      eventCount: 2,
      groupBy: { host: 'h' },
      window: { start: T0, end: T0 + MIN },
    });
  });
});

describe('value_count, value_sum, value_avg', () => {
  test('value_count: distinct values, events without the field are not counted', () => {
    const events = [
      '10.0.0.1',
      '10.0.0.1',
      '10.0.0.2',
      null,
      '10.0.0.1',
      '10.0.0.3',
      '10.0.0.2',
      '10.0.0.1',
      undefined,
      '10.0.0.2',
    ].map((dest, i) => (dest === undefined ? { _time: T0 + i } : { dest, _time: T0 + i }));
    const out = feedAll('value_count(dest) timespan=1h reset=false where _aggregation.value >= 3', events);
    assert.equal(out.length, 4);
    assert.deepEqual(out[0]?.['_aggregation'], {
      function: 'value_count',
      fields: ['dest'],
      valueCount: 3,
      value: 3,
      eventCount: 5,
      values: { '10.0.0.1': 3, '10.0.0.2': 1, '10.0.0.3': 1 },
      groupBy: {},
      window: { start: T0 + 5 - 3_600_000, end: T0 + 5 },
    });
  });

  test('value_count: the counts stay exact as a window goes from one value to several and back (sliding), "__proto__" included', () => {
    const values = (o: JsonObject | undefined) => (o?.['_aggregation'] as JsonObject)['values'];
    const out = feedAll('value_count(v) timespan=1m reset=false', [
      { v: '__proto__', _time: T0 },
      { v: '__proto__', _time: T0 + 1000 },
      { v: 'b', _time: T0 + 2000 },
      { v: 'b', _time: T0 + 61_500 }, // both "__proto__" events have left the window
      { v: 'b', _time: T0 + 200_000 }, // so has everything before
    ]);
    assert.deepEqual(out.map(values), [
      JSON.parse('{"__proto__":1}'),
      JSON.parse('{"__proto__":2}'),
      JSON.parse('{"__proto__":2,"b":1}'),
      { b: 2 },
      { b: 1 },
    ]);
    assert.equal(
      Object.getPrototypeOf(values(out[2])),
      Object.prototype,
      'a value named __proto__ is a key, not a prototype',
    );
  });

  test('value_count emit=close: maxEventsPerGroup bounds the distinct values, the counts of the kept ones stay exact', () => {
    const window = ['a', 'a', 'b', 'a', 'c'].map((v, i) => ({ v, _time: T0 + i }));
    const out = feedAll('value_count(v) timespan=1m emit=close', [...window, { v: 'x', _time: T0 + 2 * MIN }], {
      limits: { maxEventsPerGroup: 2 },
    });
    assert.deepEqual((out[0]?.['_aggregation'] as JsonObject)['values'], { a: 3, b: 1 });
    assert.equal((out[0]?.['_aggregation'] as JsonObject)['eventCount'], 5);
  });

  test('value_count of several fields counts distinct tuples', () => {
    const out = feedAll('value_count(a, b) timespan=1m reset=false', [
      { a: 1, b: 'x', _time: T0 },
      { a: 1, b: 'x', _time: T0 },
      { a: 1, b: 'y', _time: T0 },
      { a: 1, _time: T0 },
    ]);
    assert.deepEqual(
      out.map((o) => (o['_aggregation'] as JsonObject)['value']),
      [1, 1, 2],
    );
    assert.deepEqual((out[2]?.['_aggregation'] as JsonObject)['values'], { '[1,"x"]': 2, '[1,"y"]': 1 });
  });

  test('value_sum and value_avg: numbers and numeric strings; other values ignored', () => {
    const events = [{ n: 1 }, { n: '2' }, { n: 'x' }, { n: true }, { n: 3.5 }, {}].map((e, i) => ({
      ...e,
      _time: T0 + i,
    }));
    const sums = feedAll('value_sum(n) timespan=1m reset=false', events).map(
      (o) => (o['_aggregation'] as JsonObject)['value'],
    );
    assert.deepEqual(sums, [1, 3, 6.5]);
    const avgs = feedAll('value_avg(n) timespan=1m reset=false', events).map(
      (o) => (o['_aggregation'] as JsonObject)['value'],
    );
    assert.deepEqual(avgs, [1, 1.5, 6.5 / 3]);
    const [last] = feedAll('value_sum(n) timespan=1m where _aggregation.value > 6', events);
    assert.deepEqual(last?.['_aggregation'], {
      function: 'value_sum',
      field: 'n',
      value: 6.5,
      eventCount: 3,
      groupBy: {},
      window: { start: T0 + 4 - MIN, end: T0 + 4 },
    });
  });

  test('sliding sums drop what left the window', () => {
    const out = feedAll('value_sum(n) timespan=1s reset=false', [
      { n: 1, _time: T0 },
      { n: 2, _time: T0 + 500 },
      { n: 4, _time: T0 + 1200 },
    ]);
    assert.deepEqual(
      out.map((o) => (o['_aggregation'] as JsonObject)['value']),
      [1, 3, 6],
    );
  });
});

describe('temporal', () => {
  const events = {
    fail: { user: 'u', action: 'fail' },
    ok: { user: 'u', action: 'ok' },
    other: { user: 'u', action: 'other' },
  };
  const at = (e: JsonObject, t: number) => ({ ...e, _time: T0 + t });

  test('unordered: every query matched in the window, in any order', () => {
    const pdl = 'temporal [ action="fail" AS failed || action="ok" AS ok ] timespan=5m group_by user';
    assert.equal(feedAll(pdl, [at(events.ok, 0), at(events.other, 1), at(events.fail, 2)]).length, 1);
    assert.equal(feedAll(pdl, [at(events.ok, 0), at(events.fail, 5 * MIN + 1)]).length, 0);
  });

  test('ordered: in the listed order, ties allowed; emits the documented _temporal object', () => {
    const pdl = 'temporal(ordered=true) [ action="fail" AS failed || action="ok" AS ok ] timespan=5m group_by user';
    assert.equal(feedAll(pdl, [at(events.ok, 0), at(events.fail, 1)]).length, 0);
    assert.equal(feedAll(pdl, [at(events.ok, 0), at(events.fail, 0)]).length, 1); // same time
    const out = feedAll(pdl, [at(events.fail, 0), at(events.fail, 1), at(events.ok, 2)]);
    assert.deepEqual(out, [
      {
        user: 'u',
        _time: T0 + 2,
        _temporal: {
          ordered: true,
          matched: 2,
          matches: { failed: [at(events.fail, 0), at(events.fail, 1)], ok: [at(events.ok, 2)] },
          groupBy: { user: 'u' },
          window: { start: T0 + 2 - 5 * MIN, end: T0 + 2 },
        },
      },
    ]);
  });

  test('matches are keyed by the query text when there is no label', () => {
    const [out] = feedAll('temporal [ a=1 || b = "x" ] timespan=1m', [
      { a: 1, _time: T0 },
      { b: 'x', _time: T0 },
    ]);
    assert.deepEqual(Object.keys((out?.['_temporal'] as JsonObject)['matches'] as JsonObject), ['a = 1', 'b = "x"']);
  });

  test('where _temporal.matched replaces the condition (Sigma temporal count)', () => {
    const pdl = 'temporal [ a=1 || b=1 || c=1 ] timespan=1m reset=false where _temporal.matched >= 2';
    const out = feedAll(pdl, [
      { a: 1, _time: T0 },
      { a: 1, _time: T0 + 1 },
      { c: 1, _time: T0 + 2 },
      { b: 1, _time: T0 + 3 },
    ]);
    assert.deepEqual(
      out.map((o) => (o['_temporal'] as JsonObject)['matched']),
      [2, 3],
    );
  });

  test('ordered with where: matched counts the queries matched in order from the first', () => {
    const pdl = 'temporal(ordered=true) [ a=1 || b=1 || c=1 ] timespan=1m reset=false where _temporal.matched >= 1';
    const out = feedAll(pdl, [
      { c: 1, _time: T0 },
      { a: 1, _time: T0 + 1 },
      { b: 1, _time: T0 + 2 },
    ]);
    assert.deepEqual(
      out.map((o) => (o['_temporal'] as JsonObject)['matched']),
      [1, 2],
    );
  });

  test('emit=close temporal with negation: "a without b" in the window', () => {
    // matches.b is an array of events: `= []` holds when no event matched b.
    const pdl =
      'temporal [ a=1 AS a || b=1 AS b ] timespan=1m group_by h emit=close where _temporal.matched >= 1 AND _temporal.matches.b = []';
    const c = compile(pdl);
    c.feed({ h: 1, a: 1, _time: T0 });
    c.feed({ h: 2, a: 1, _time: T0 });
    c.feed({ h: 2, b: 1, _time: T0 + 1 });
    const out = c.advanceTime(T0 + 2 * MIN);
    assert.deepEqual(
      out.map((o) => o['h']),
      [1],
    );
  });
});

describe('chaining correlations', () => {
  test('a correlation on the output of another, grouping on the copied group_by values', () => {
    const pdl =
      'event_count timespan=1m group_by user where _aggregation.value >= 2 | eval stage = "burst" | event_count timespan=10m group_by user where _aggregation.value >= 2';
    const c = compile(pdl);
    const feed = (t: number) => c.feed({ user: 'alice', _time: T0 + t });
    assert.deepEqual([feed(0), feed(1000)].flat(), []); // first burst: 1 output of stage 1
    const out = [feed(5 * MIN), feed(5 * MIN + 1000)].flat(); // second burst completes stage 2
    assert.equal(out.length, 1);
    assert.deepEqual(out[0], {
      user: 'alice',
      _time: T0 + 5 * MIN + 1000,
      _aggregation: {
        function: 'event_count',
        eventCount: 2,
        value: 2,
        groupBy: { user: 'alice' },
        window: { start: T0 + 5 * MIN + 1000 - 10 * MIN, end: T0 + 5 * MIN + 1000 },
      },
    });
  });

  test('emit=close output flows through later stages from advanceTime', () => {
    const c = compile(
      'event_count timespan=1m group_by u emit=close | eval n = _aggregation.value * 10 | fields keep u, n',
    );
    c.feed({ u: 'x', _time: T0 });
    c.feed({ u: 'x', _time: T0 + 1 });
    assert.deepEqual(c.advanceTime(T0 + 5 * MIN), [{ u: 'x', n: 20 }]);
  });

  test('rules over alerts: select them by _rule.id, then correlate', () => {
    const c = compile(
      '_rule.id IN ["r1", "r2"] | value_count(_rule.id) timespan=1h group_by host where _aggregation.value >= 2',
    );
    assert.deepEqual(c.feed({ _rule: { id: 'r1' }, host: 'h', _time: T0 }), []);
    assert.deepEqual(c.feed({ _rule: { id: 'r3' }, host: 'h', _time: T0 + 1 }), []);
    assert.equal(c.feed({ _rule: { id: 'r2' }, host: 'h', _time: T0 + 2 }).length, 1);
  });
});

describe('late events and bounded state', () => {
  test('sliding: events older than the group window are counted and ignored', () => {
    const c = compile('event_count timespan=1m group_by u reset=false');
    c.feed({ u: 1, _time: T0 + 10 * MIN });
    assert.deepEqual(c.feed({ u: 1, _time: T0 + 8 * MIN }), []);
    assert.equal(c.counters.lateEvents, 1);
    // Out of order but inside the window: counted.
    const [out] = c.feed({ u: 1, _time: T0 + 9 * MIN + 30_000 });
    assert.equal((out?.['_aggregation'] as JsonObject)['value'], 2);
    assert.equal(c.counters.lateEvents, 1);
  });

  test('emit=close: events before the window start, or whose window already closed, are late', () => {
    const c = compile('event_count timespan=1m group_by u emit=close');
    c.feed({ u: 1, _time: T0 });
    c.feed({ u: 1, _time: T0 - 1 });
    assert.equal(c.counters.lateEvents, 1);
    c.feed({ u: 2, _time: T0 + 10 * MIN }); // closes u=1
    c.feed({ u: 3, _time: T0 + MIN }); // its window would have closed long ago
    assert.equal(c.counters.lateEvents, 2);
  });

  test('maxGroups: the least recently used group is evicted and counted', () => {
    const c = compile('event_count timespan=1h group_by u reset=false where _aggregation.value >= 2', {
      limits: { maxGroups: 2 },
    });
    c.feed({ u: 'a', _time: T0 });
    c.feed({ u: 'b', _time: T0 + 1 });
    c.feed({ u: 'c', _time: T0 + 2 }); // evicts a
    assert.equal(c.counters.evictedGroups, 1);
    assert.deepEqual(c.feed({ u: 'a', _time: T0 + 3 }), []); // a starts over (evicts b)
    assert.equal(c.feed({ u: 'c', _time: T0 + 4 }).length, 1);
    assert.equal(c.counters.evictedGroups, 2);
  });

  test('idle groups are dropped before live ones, without counting', () => {
    const c = compile('event_count timespan=1m group_by u reset=false', { limits: { maxGroups: 2 } });
    c.feed({ u: 'a', _time: T0 });
    c.feed({ u: 'b', _time: T0 + 10 * MIN });
    c.feed({ u: 'c', _time: T0 + 10 * MIN + 1 });
    assert.equal(c.counters.evictedGroups, 0);
  });

  test('maxEventsPerGroup: temporal keeps at most N events per query', () => {
    const c = compile('temporal [ a=1 AS a || b=1 AS b ] timespan=1h', { limits: { maxEventsPerGroup: 2 } });
    for (let i = 0; i < 5; i++) c.feed({ a: 1, i, _time: T0 + i });
    assert.equal(c.counters.evictedEvents, 3);
    const [out] = c.feed({ b: 1, _time: T0 + 10 });
    const matches = (out?.['_temporal'] as JsonObject)['matches'] as Record<string, JsonObject[]>;
    assert.deepEqual(
      matches['a']?.map((e) => e['i']),
      [3, 4],
    );
  });

  test('maxEventsPerGroup bounds sliding aggregations too', () => {
    const c = compile('event_count timespan=1h reset=false', { limits: { maxEventsPerGroup: 3 } });
    let last: JsonObject | undefined;
    for (let i = 0; i < 5; i++) last = c.feed({ _time: T0 + i })[0];
    assert.equal((last?.['_aggregation'] as JsonObject)['value'], 3);
    assert.equal(c.counters.evictedEvents, 2);
  });

  test('advanceTime forgets idle sliding groups', () => {
    const store = new InMemoryCorrelationStateStore();
    const c = compile('event_count timespan=1m group_by u reset=false', { stateStore: store });
    c.feed({ u: 1, _time: T0 });
    c.feed({ u: 2, _time: T0 + 5 * MIN });
    c.advanceTime(T0 + 5 * MIN + 1);
    assert.equal(store.size('pdl#0'), 1);
  });
});

describe('CorrelationStateStore', () => {
  /** A store that keeps only JSON text, like a durable one would. */
  class JsonStore implements CorrelationStateStore {
    readonly data = new Map<string, string>();
    readonly clocks = new Map<string, StageClock>();
    clock(scope: string): StageClock {
      let c = this.clocks.get(scope);
      if (c === undefined) this.clocks.set(scope, (c = newStageClock()));
      return c;
    }
    get(scope: string, key: string): CorrelationGroupState | undefined {
      const text = this.data.get(`${scope}\u0000${key}`);
      return text === undefined ? undefined : (JSON.parse(text) as CorrelationGroupState);
    }
    set(scope: string, key: string, state: CorrelationGroupState): void {
      this.data.delete(`${scope}\u0000${key}`);
      this.data.set(`${scope}\u0000${key}`, JSON.stringify(state));
    }
    delete(scope: string, key: string): void {
      this.data.delete(`${scope}\u0000${key}`);
    }
    size(scope: string): number {
      return [...this.data.keys()].filter((k) => k.startsWith(`${scope}\u0000`)).length;
    }
    *entries(scope: string): Iterable<readonly [string, CorrelationGroupState]> {
      for (const [k, v] of [...this.data]) {
        if (k.startsWith(`${scope}\u0000`)) yield [k.slice(scope.length + 1), JSON.parse(v) as CorrelationGroupState];
      }
    }
  }

  test('state is plain JSON: a store that serialises every write gives the same results', () => {
    const pdl =
      'value_count(dest) timespan=1m group_by src reset=false where _aggregation.value >= 2 | temporal [ src="a" AS x || src="b" AS y ] timespan=1h';
    const events = [
      { src: 'a', dest: 1, _time: T0 },
      { src: 'a', dest: 2, _time: T0 + 1 },
      { src: 'b', dest: 1, _time: T0 + 2 },
      { src: 'b', dest: 3, _time: T0 + 3 },
    ];
    const expected = feedAll(pdl, events);
    assert.equal(expected.length, 1);
    assert.deepEqual(feedAll(pdl, events, { stateStore: new JsonStore() }), expected);
  });

  test('state survives a restart when the store does (emit=close)', () => {
    const store = new JsonStore();
    const pdl = 'event_count timespan=1m group_by u emit=close';
    compile(pdl, { stateStore: store, stateId: 'rule-1' }).feed({ u: 'a', _time: T0 });
    const restarted = compile(pdl, { stateStore: store, stateId: 'rule-1' });
    const out = restarted.feed({ u: 'b', _time: T0 + 2 * MIN });
    assert.deepEqual(
      out.map((o) => o['u']),
      ['a'],
    );
  });

  test('stateId separates programs sharing a store', () => {
    const store = new InMemoryCorrelationStateStore();
    const pdl = 'event_count timespan=1m reset=false where _aggregation.value >= 2';
    const one = compile(pdl, { stateStore: store, stateId: 'one' });
    const two = compile(pdl, { stateStore: store, stateId: 'two' });
    one.feed({ _time: T0 });
    assert.deepEqual(two.feed({ _time: T0 }), []);
    assert.equal(one.feed({ _time: T0 }).length, 1);
  });
});
