import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainBody, explanation } from '../src/explain.ts';
import { violationsOf } from './helpers/ajv.ts';

test('the body: a rule (pdl or ruleId) and an event or a sample; nothing else', () => {
  const check = violationsOf(explainBody);
  assert.deepEqual(check({ pdl: 'a = 1', event: { a: 1 } }), []);
  assert.deepEqual(check({ ruleId: 'r', events: [{ a: 1 }, 'text'] }), []);
  assert.deepEqual(check({ pdl: 1, event: {} }), ['/pdl type']);
  assert.deepEqual(check({ pdl: 'a = 1', events: {} }), ['/events type']);
  assert.deepEqual(check({ pdl: 'a = 1', event: {}, evnt: {} }), ['/ additionalProperties']);
});

test('the answer describes what explain gives, a correlation included (open objects: nothing is cut)', () => {
  const check = violationsOf(explanation);
  const leaf = (pdl: string, result: boolean) => ({
    kind: 'Comparison',
    pdl,
    line: 1,
    column: 1,
    result,
    fields: [
      { field: 'a', present: true, value: 1 },
      { field: 'b', present: false },
    ],
  });
  const condition = {
    kind: 'And',
    pdl: 'a = 1 AND b = 2',
    result: false,
    operands: [leaf('a = 1', true), leaf('b = 2', false)],
  };
  const correlation = {
    stage: 1,
    kind: 'AggregationStage',
    pdl: 'event_count timespan=1m group_by h',
    group: { key: '["x"]', values: { h: 'x' } },
    counted: true,
    late: false,
    fired: true,
    passed: true,
    window: { start: -60000, end: 0 },
    state: { function: 'event_count', eventCount: 1, value: 1 },
  };
  const answer = {
    matched: true,
    outputs: [{ h: 'x' }],
    events: [
      {
        index: 0,
        stoppedAt: 1,
        outputs: 0,
        stages: [{ stage: 0, kind: 'QueryStage', pdl: 'a = 1 AND b = 2', passed: false, condition }],
      },
      { index: 1, stoppedAt: null, outputs: 1, stages: [correlation] },
    ],
    correlation: {
      stage: 1,
      kind: 'AggregationStage',
      pdl: correlation.pdl,
      emissions: [{ atEvent: 1 }],
      openGroups: [],
    },
  };
  assert.deepEqual(check(answer), []);
  assert.deepEqual(check({ ...answer, matched: 'yes' }), ['/matched type']);
});
