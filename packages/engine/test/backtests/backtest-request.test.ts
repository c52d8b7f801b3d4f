import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { rulesSubject } from '../../src/backtests/backtest-evaluator.ts';
import { planBacktest } from '../../src/backtests/backtest-request.ts';
import { stored, catalog, source } from './catalog-fixture.ts';

test('a plan: rules by version and inline, the rules in force with their ids, times as ISO or ms, first defaults to 20', () => {
  const plan = planBacktest(
    {
      candidate: {
        rules: [
          { id: 'fail', version: 1 },
          { id: 'new', pdl: 'action="x"' },
        ],
      },
      source: { topic: 'logins', from: '2019-03-14T09:00:00Z', to: 1552557600000 },
    },
    catalog,
  );
  assert.deepEqual(
    plan.candidate,
    rulesSubject([
      stored,
      { id: 'new', name: 'new', description: '', annotations: [], enabled: true, pdl: 'action="x"' } as StoredRule,
    ]),
  );
  assert.deepEqual(plan.current, rulesSubject([stored]));
  assert.deepEqual([plan.label, plan.rules], ['fail, new', ['fail', 'new']]);
  assert.deepEqual(plan.input, { kind: 'times', topic: 'logins', from: Date.UTC(2019, 2, 14, 9), to: 1552557600000 });
  assert.equal(plan.first, 20);
});

test('refusals name the field: a rule listed twice, an unknown field, a version that records a deletion', () => {
  assert.throws(
    () =>
      planBacktest(
        {
          candidate: {
            rules: [
              { id: 'a', pdl: 'x=1' },
              { id: 'a', pdl: 'x=2' },
            ],
          },
          source,
        },
        catalog,
      ),
    {
      message: "The backtest request is not valid: candidate.rules[1].id: rule 'a' is listed twice",
    },
  );
  assert.throws(() => planBacktest({ candidate: { rules: [{ id: 'a', pdl: 'x=1' }] }, source, extra: 1 }, catalog), {
    message:
      'The backtest request is not valid: body.extra: is not a field of a backtest request (accepted: candidate, source, first)',
  });
  assert.throws(() => planBacktest({ candidate: { rules: [{ id: 'fail', version: 2 }] }, source }, catalog), {
    message:
      "The backtest request is not valid: candidate.rules[0].version: version 2 of rule 'fail' records its deletion and holds no rule",
  });
});
