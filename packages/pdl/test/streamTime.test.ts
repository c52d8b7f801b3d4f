import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryCorrelationStateStore, compile } from '../src/index.ts';
import type { JsonObject } from '../src/index.ts';

const MIN = 60_000;
const RULE = 'action="login" | event_count timespan=10m group_by user reset=false where _aggregation.value >= 20';

/** 50 users × 40 logins, interleaved, spread over 4 minutes from `t0`. */
function logins(t0: number): JsonObject[] {
  const events: JsonObject[] = [];
  for (let i = 0; i < 40; i++)
    for (let u = 0; u < 50; u++) events.push({ action: 'login', user: `u${u}`, _time: t0 + (i * 50 + u) * 120 });
  return events;
}

/** Per user: the aggregation values of its outputs, in order. */
function valuesByUser(outputs: JsonObject[]): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const o of outputs) {
    const values = by.get(String(o['user'])) ?? [];
    values.push((o['_aggregation'] as JsonObject)['value'] as number);
    by.set(String(o['user']), values);
  }
  return by;
}

describe('stream time: windows move with the events, not the wall clock', () => {
  test('events of 2023 correlate exactly like events of now (21 alerts per user, values 20..40)', () => {
    const past = compile(RULE);
    const now = compile(RULE);
    const pastOut = logins(Date.UTC(2023, 2, 1)).flatMap((e) => past.feed(e));
    const nowOut = logins(Date.now() - 5 * MIN).flatMap((e) => now.feed(e));
    assert.equal(pastOut.length, 1050);
    assert.deepEqual(valuesByUser(pastOut), valuesByUser(nowOut));
    const expected = Array.from({ length: 21 }, (_, i) => 20 + i);
    for (const values of valuesByUser(pastOut).values()) assert.deepEqual(values, expected);
  });

  test("stream time is per store: one partition far ahead does not close or expire another partition's windows", () => {
    const left = new InMemoryCorrelationStateStore();
    const right = new InMemoryCorrelationStateStore();
    const pdl = 'event_count timespan=1m group_by u emit=close';
    const t0 = Date.UTC(2023, 0, 1);
    const onLeft = compile(pdl, { stateStore: left, stateId: 'r' });
    const onRight = compile(pdl, { stateStore: right, stateId: 'r' });
    onLeft.feed({ u: 'a', _time: t0 });
    assert.deepEqual(onRight.feed({ u: 'b', _time: t0 + 60 * MIN }), []); // another partition's time
    assert.equal(left.size('r#0'), 1); // the left window is still open
    assert.equal(left.clock('r#0').time, t0);
    const closed = onLeft.feed({ u: 'a', _time: t0 + 2 * MIN });
    assert.deepEqual(
      closed.map((o) => (o['_aggregation'] as JsonObject)['value']),
      [1],
    );
  });

  test('advanceBy moves an idle stage forward from its own stream time and closes due windows', () => {
    const t0 = Date.UTC(2023, 5, 1);
    const c = compile('event_count timespan=1m group_by u emit=close');
    assert.deepEqual(c.advanceBy(10 * MIN), []); // no event yet: nothing to advance
    c.feed({ u: 'a', _time: t0 });
    assert.deepEqual(c.advanceBy(30_000), []);
    const out = c.advanceBy(31_000);
    assert.equal(out.length, 1);
    assert.equal(out[0]?.['_time'], t0);
  });

  test('emit=event groups whose window lies behind stream time are forgotten as stream time advances', () => {
    const store = new InMemoryCorrelationStateStore();
    const c = compile('event_count timespan=1m group_by u reset=false where _aggregation.value > 5', {
      stateStore: store,
      stateId: 's',
    });
    const t0 = Date.UTC(2023, 0, 1);
    for (let u = 0; u < 100; u++) c.feed({ u, _time: t0 });
    assert.equal(store.size('s#0'), 100);
    c.feed({ u: 'late-comer', _time: t0 + 5 * MIN });
    assert.equal(store.size('s#0'), 1);
  });
});

describe('route and resume: the stages before the correlation run once, the rest where the group lives', () => {
  test('routing then resuming on another compiled instance gives what feed gives', () => {
    const pdl =
      'action="login" | eval who=lower(user) | event_count timespan=10m group_by who reset=false where _aggregation.value >= 2 | eval seen=_aggregation.value';
    const events = [
      { action: 'login', user: 'A', _time: 1000 },
      { action: 'logout', user: 'A', _time: 1500 },
      { action: 'login', user: 'a', _time: 2000 },
      { action: 'login', user: 'B', _time: 3000 },
    ];
    const reference = compile(pdl);
    const expected = events.flatMap((e) => reference.feed(e));
    const front = compile(pdl);
    const back = compile(pdl);
    const routed = events.map((e) => front.route(e));
    assert.equal(routed[1], null); // stopped by the query before the stage
    assert.deepEqual(
      routed.map((r) => r?.key ?? null),
      ['["a"]', null, '["a"]', '["b"]'],
    );
    const outputs = routed.flatMap((r) => (r === null ? [] : back.resume(JSON.parse(JSON.stringify(r)))));
    assert.deepEqual(outputs, expected);
    assert.deepEqual(
      outputs.map((o) => o['seen']),
      [2],
    );
  });

  test('a stage without group_by has one group: key []', () => {
    const c = compile('event_count timespan=1m');
    assert.equal(c.route({ x: 1, _time: 5 })?.key, '[]');
    assert.equal(compile('x=1').route({ x: 1 }), null); // no correlation: nothing to route
  });
});
