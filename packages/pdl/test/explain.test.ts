import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compile, explain } from '../src/index.ts';
import type { CorrelationStageTrace, Pipeline } from '../src/index.ts';
import { event, pipeline } from './arbitraries.ts';

const now = (): number => 0;

describe('explain', () => {
  test('a rule on one event: each stage in order, stopped at the query that failed', () => {
    const out = explain('user = "bob" | eval x = port * 2 | x > 5000', { user: 'bob', port: 100 }, { now });
    assert.equal(out.matched, false);
    assert.deepEqual(out.outputs, []);
    const [trace] = out.events;
    assert.equal(trace?.stoppedAt, 2);
    assert.deepEqual(
      trace?.stages.map((s) => [s.stage, s.kind, s.pdl, s.passed]),
      [
        [0, 'QueryStage', 'user = "bob"', true],
        [1, 'EvalStage', 'eval x = port * 2', true],
        [2, 'QueryStage', 'x > 5000', false],
      ],
    );
    const last = trace?.stages[2];
    assert.ok(last?.kind === 'QueryStage');
    assert.deepEqual(last.condition.fields, [{ field: 'x', present: true, value: 200 }]);
  });

  test('a match: the verdict and the output are the compiled rule’s', () => {
    const out = explain('user = "bob" | eval x = 1', { user: 'bob' }, { now });
    assert.equal(out.matched, true);
    assert.deepEqual(out.outputs, [{ user: 'bob', x: 1 }]);
    assert.equal(out.events[0]?.stoppedAt, null);
    assert.equal(out.events[0]?.outputs, 1);
  });

  test('a value that is not an object stops at the first stage', () => {
    const out = explain('user = "bob"', [1, 'x'], { now });
    assert.equal(out.matched, false);
    assert.deepEqual(
      out.events.map((e) => [e.index, e.stoppedAt, e.stages.length]),
      [
        [0, 0, 0],
        [1, 0, 0],
      ],
    );
  });

  test('an aggregation over a sample: per event the group, its window, its count and whether it fired', () => {
    const events = [
      { user: 'bob', host: 'h1', _time: 1000 },
      { user: 'al', host: 'h1', _time: 2000 },
      { user: 'bob', host: 'h1', _time: 3000 },
      { user: 'bob', host: 'h2', _time: 4000 },
      { host: 'h1', _time: 200_000 },
    ];
    const text = 'user = "bob" | event_count timespan=1m group_by host where _aggregation.value >= 2 | eval n = 1';
    const out = explain(text, events, { now });
    assert.equal(out.matched, true);
    assert.equal(out.outputs.length, 1);
    const correlations = out.events.map((e) =>
      e.stages.find((s): s is CorrelationStageTrace => s.kind === 'AggregationStage'),
    );
    assert.equal(correlations[1], undefined); // stopped at the query
    assert.equal(out.events[1]?.stoppedAt, 0);
    assert.deepEqual(
      correlations.map((c) => c && { group: c.group.values, window: c.window, state: c.state, fired: c.fired }),
      [
        {
          group: { host: 'h1' },
          window: { start: -59000, end: 1000 },
          state: { function: 'event_count', eventCount: 1, value: 1 },
          fired: false,
        },
        undefined,
        {
          group: { host: 'h1' },
          window: { start: -57000, end: 3000 },
          state: { function: 'event_count', eventCount: 2, value: 2 },
          fired: true,
        },
        {
          group: { host: 'h2' },
          window: { start: -56000, end: 4000 },
          state: { function: 'event_count', eventCount: 1, value: 1 },
          fired: false,
        },
        undefined,
      ],
    );
    assert.deepEqual(
      out.events.map((e) => [e.stoppedAt, e.outputs]),
      [
        [1, 0],
        [0, 0],
        [null, 1],
        [1, 0],
        [0, 0],
      ],
    );
    const emissions = out.correlation?.emissions ?? [];
    assert.equal(emissions.length, 1);
    assert.deepEqual(emissions[0]?.group.values, { host: 'h1' });
    assert.equal(emissions[0]?.atEvent, 2);
    assert.deepEqual(
      emissions[0]?.stages.map((s) => [s.stage, s.kind, s.passed]),
      [[2, 'EvalStage', true]],
    );
  });

  test('emit=close: the end of the sample closes the open windows, listed before it did', () => {
    const text = 'value_count(user) timespan=1m group_by host emit=close where _aggregation.value >= 2';
    const out = explain(
      text,
      [
        { user: 'a', host: 'h', _time: 0 },
        { user: 'b', host: 'h', _time: 10 },
        { user: 'a', host: 'k', _time: 20 },
        { host: 'k', _time: 30 }, // no user: not counted
      ],
      { now },
    );
    assert.equal(out.matched, true);
    assert.equal(out.outputs.length, 1);
    const last = out.events[3]?.stages[0];
    assert.ok(last?.kind === 'AggregationStage');
    assert.equal(last.counted, false);
    assert.deepEqual(
      out.correlation?.openGroups.map((g) => [g.group.key, g.window, g.state['value']]),
      [
        ['["h"]', { start: 0, end: 60000 }, 2],
        ['["k"]', { start: 20, end: 60020 }, 1],
      ],
    );
    assert.deepEqual(
      out.correlation?.emissions.map((e) => [e.group.key, e.atEvent, e.state['value'], e.stoppedAt]),
      [['["h"]', null, 2, null]],
    );
  });

  test('a temporal stage: each query’s tree on the event and the sequence’s progress', () => {
    const text = 'temporal(ordered=true) [ action = "login" AS l || action = "sudo" AS s ] timespan=5m group_by user';
    const out = explain(
      text,
      [
        { user: 'u', action: 'login', _time: 0 },
        { user: 'u', action: 'sudo', _time: 1000 },
      ],
      { now },
    );
    assert.equal(out.matched, true);
    const first = out.events[0]?.stages[0];
    assert.ok(first?.kind === 'TemporalStage');
    assert.deepEqual(
      first.queries?.map((q) => [q.label, q.condition.result]),
      [
        ['l', true],
        ['s', false],
      ],
    );
    assert.deepEqual(first.state, { ordered: true, matched: 1, of: 2, matches: { l: 1, s: 0 } });
    const second = out.events[1]?.stages[0];
    assert.ok(second?.kind === 'TemporalStage');
    assert.equal(second.fired, true);
  });

  test('a late event is shown as late and not counted', () => {
    const out = explain(
      'event_count timespan=1m group_by h where _aggregation.value > 5',
      [
        { h: 1, _time: 100_000 },
        { h: 1, _time: 1000 },
      ],
      { now },
    );
    const late = out.events[1]?.stages[0];
    assert.ok(late?.kind === 'AggregationStage');
    assert.deepEqual([late.late, late.counted], [true, false]);
  });

  test('property: over generated rules, the traces agree with the compiled rule', () => {
    fc.assert(
      fc.property(pipeline, fc.array(event, { maxLength: 4 }), (generated, events) => {
        const ast = generated as unknown as Pipeline;
        const correlations = ast.stages.filter((s) => s.kind === 'AggregationStage' || s.kind === 'TemporalStage');
        for (const e of events) {
          const one = explain(ast, e, { now });
          assert.deepEqual(one.outputs, ((r) => (r === null ? [] : [r]))(compile(ast, { now }).run(e)));
          if (correlations.length === 0) assert.equal(one.events[0]?.stoppedAt === null, one.matched);
        }
        const sample = explain(ast, events, { now });
        const program = compile(ast, { now });
        const expected = events.flatMap((e) => program.feed(e, { timestamp: 0 }));
        expected.push(...program.advanceTime(Number.MAX_SAFE_INTEGER));
        assert.deepEqual(sample.outputs, expected);
        if (correlations.length === 0) {
          sample.events.forEach((t) => assert.equal(t.stoppedAt === null, t.outputs > 0));
        } else if (correlations.length === 1) {
          // every emission of the correlation that went through the later stages is one output
          const through = sample.correlation?.emissions.filter((em) => em.stoppedAt === null).length;
          assert.equal(through, sample.outputs.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
