// The original product's PDL documentation examples (padasio/padas-docs, snippets/pdl/) and
// forms, run against Weir: docs/compatibility.md says how each relates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { check, compile } from '../src/index.ts';
import type { JsonObject } from '../src/index.ts';

const T0 = Date.UTC(2024, 0, 1);
const feedAll = (pdl: string, events: JsonObject[], names: 'weir' | 'original' = 'original'): JsonObject[] => {
  const c = compile(pdl, { outputNames: names });
  const out: JsonObject[] = [];
  events.forEach((e, i) => out.push(...c.feed(e, { timestamp: T0 + i * 1000 })));
  out.push(...c.advanceTime(T0 + 24 * 3600_000));
  return out;
};
const four = [
  { field1: 'value1', field2: 123 },
  { field1: 'value1', field2: 124 },
  { field1: 'value2', field2: 123 },
  { field1: 'value2', field2: 123 },
];

describe("the original's correlation examples", () => {
  test('event_count timespan=1m over four events: one output with count 4 when the window closes (emit=close; docs/compatibility.md)', () => {
    const out = feedAll('event_count timespan=1m emit=close', four);
    assert.deepEqual(
      out.map((o) => o.padasAggregation),
      [{ result: {}, eventCount: 4 }],
    );
    // Weir's default (emit=event, reset=true): every event meets the (absent) condition and starts over.
    assert.equal(feedAll('event_count timespan=1m', four).length, 4);
  });

  test('event_count group_by field1 where padasAggregation.eventCount > 1: one output per group with count 2', () => {
    const pdl = 'event_count timespan=5m group_by field1 where padasAggregation.eventCount > 1';
    assert.deepEqual(
      feedAll(pdl, four).map((o) => o.padasAggregation),
      [
        { groupBy: { field1: 'value1' }, result: { field1: { value1: 2 } }, eventCount: 2 },
        { groupBy: { field1: 'value2' }, result: { field1: { value2: 2 } }, eventCount: 2 },
      ],
    );
    // Under Weir's names the same rule fires too (the where sees both namings); the output is `_aggregation`.
    const weir = feedAll(pdl, four, 'weir');
    assert.deepEqual(
      weir.map((o) => (o._aggregation as JsonObject).eventCount),
      [2, 2],
    );
    assert.ok(weir.every((o) => !('padasAggregation' in o)));
  });

  test('value_count(field1) timespan=60s: one output with valueCount 2, result per value, eventCount 5', () => {
    const five = [...four.slice(0, 3), { field1: 'value2', field2: 123 }, { field1: 'value2', field2: 123 }];
    assert.deepEqual(
      feedAll('value_count(field1) timespan=60s emit=close', five).map((o) => o.padasAggregation),
      [{ field: 'field1', valueCount: 2, result: { field1: { value1: 2, value2: 3 } }, eventCount: 5 }],
    );
  });

  test('value_count(field1) group_by field2: groupBy, valueCount 3', () => {
    const five = [
      { field1: 'value1', field2: 123 },
      { field1: 'value1', field2: 123 },
      { field1: 'value2', field2: 123 },
      { field1: 'value2', field2: 123 },
      { field1: 'value3', field2: 123 },
    ];
    assert.deepEqual(
      feedAll('value_count(field1) timespan=60s group_by field2 emit=close', five).map((o) => o.padasAggregation),
      [
        {
          groupBy: { field2: 123 },
          field: 'field1',
          valueCount: 3,
          result: { field1: { value1: 2, value2: 2, value3: 1 } },
          eventCount: 5,
        },
      ],
    );
  });

  test('temporal(ordered=true) [...] group_by field2: only group 95 matches both, in order', () => {
    const events = [
      { field1: 'sometext', field2: 90 },
      { field1: 'value1', field2: 124 },
      { field1: 'value2', field2: 95 },
      { field1: 'value2', field2: 123 },
    ];
    const out = feedAll(
      'temporal(ordered=true) [ field1?="value" || field2 < 100 ] timespan=2m group_by field2',
      events,
    );
    assert.equal(out.length, 1);
    const temporal = out[0]!.padasTemporal as { groupBy: JsonObject; result: Record<string, JsonObject[]> };
    assert.deepEqual(temporal.groupBy, { field2: 95 });
    assert.deepEqual(
      Object.values(temporal.result).map((list) => list.map((e) => e.field2)),
      [[95], [95]],
    );
  });

  test('where on fields of the grouped events: event_count ... group_by field1 where field3 > 100', () => {
    const events = [
      { field1: 'a', field3: 50 },
      { field1: 'a', field3: 150 },
      { field1: 'b', field3: 10 },
    ];
    const out = feedAll('event_count timespan=5m group_by field1 where field3 > 100', events, 'weir');
    assert.deepEqual(
      out.map((o) => [o.field1, (o._aggregation as JsonObject).eventCount]),
      [['a', 2]],
    );
    assert.ok(!('field3' in out[0]!), 'the output is the stage output, not the event');
  });

  test("the Sigma guide's temporal(<field>, [values], <ordered>) is temporal(ordered=<b>) [ field=v1 || field=v2 ]", () => {
    const pdl = 'temporal(rule, ["select01", "select02"], true) timespan=10s group_by ip';
    const events = [
      { rule: 'select02', ip: 'x' },
      { rule: 'select01', ip: 'x' },
      { rule: 'select02', ip: 'x' },
    ];
    const out = feedAll(pdl, events, 'weir');
    assert.equal(out.length, 1);
    assert.deepEqual(Object.keys((out[0]!._temporal as { matches: JsonObject }).matches), [
      'rule = "select01"',
      'rule = "select02"',
    ]);
    assert.equal((out[0]!._temporal as { ordered: boolean }).ordered, true);
    assert.equal(
      feedAll('temporal(rule, ["a", "b"]) timespan=10s', [{ rule: 'b' }, { rule: 'a' }], 'weir').length,
      1,
      'unordered by default',
    );
    const bad = check('temporal(rule, ["a", "a"], true) timespan=10s');
    assert.equal(bad.result, false);
    if (!bad.result)
      assert.equal(bad.error.message, `line 1, column 22: 'rule = "a"' is listed twice in temporal(...)`);
    const missing = check('temporal(rule, "a") timespan=10s');
    assert.equal(missing.result, false);
  });
});
