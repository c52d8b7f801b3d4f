import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredRule } from '@weir/contract';
import { rulesSubject } from '../../src/backtests/backtest-evaluator.ts';
import { planBacktest, type BacktestCatalog } from '../../src/backtests/backtest-request.ts';
import { domainError } from '../../src/core/errors.ts';

const stored = {
  id: 'fail',
  name: 'Fail',
  description: '',
  pdl: 'action="fail"',
  annotations: [],
  enabled: true,
} as unknown as StoredRule;
const tasks: Record<string, unknown> = {
  '1': { id: 1, name: 'kv', function: 'PARSE_KV', definition: {} },
  '2': { id: 2, name: 'rules', function: 'APPLY_RULES', definition: { rules: ['fail', 'other'], matchAll: true } },
  '3': { id: 3, name: 'broken', function: 'PDL_EXPRESSION', definition: { pdl: 'action=' } },
};
const pipelines: Record<string, unknown> = {
  '1': { id: 1, name: 'p', description: '', tasks: [1, 2] },
  '2': { id: 2, name: 'broken', description: '', tasks: [3] },
};
const pipelineVersions: unknown[] = [{ id: 1, name: 'p', description: '', tasks: [2] }, pipelines['1'], undefined];
const topology = {
  id: 5,
  name: 't',
  description: '',
  pipelines: [1],
  enabled: true,
  group: 'default',
  input: {
    name: 'logins',
    keySerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
    valueSerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
  },
  output: [],
};
const catalog: BacktestCatalog = {
  version: (collection, id, v) => {
    if (collection === 'rules' && id === 'fail' && v <= 2) return v === 1 ? stored : undefined;
    if (collection === 'pipelines' && id === '1' && v <= pipelineVersions.length) return pipelineVersions[v - 1];
    throw domainError('VERSION_MISSING', { one: collection.replace(/s$/, ''), many: collection }, id, v, 3);
  },
  current: <T>(collection: string, id: string) =>
    (collection === 'rules'
      ? id === 'fail'
        ? stored
        : undefined
      : collection === 'tasks'
        ? tasks[id]
        : collection === 'pipelines'
          ? pipelines[id]
          : id === '5'
            ? topology
            : undefined) as T | undefined,
  rules: () => [stored],
  lookups: { get: () => undefined },
};
const source = { topic: 'logins', from: 0, to: 1 };

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
