import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredPipeline, StoredTask, StoredTopology } from '@weir/contract';
import { missingRules, tasksRunBy } from '../../src/rules/missing-rules.ts';

const topology = (id: number, pipelines: number[], enabled = true, group = 'default'): StoredTopology => ({
  id,
  name: `topo-${id}`,
  pipelines,
  enabled,
  group,
  input: { name: 'in', keySerde: 'String', valueSerde: 'String' },
  output: [],
});
const pipeline = (id: number, tasks: number[]): StoredPipeline => ({ id, name: `pipe-${id}`, tasks });
const applyRules = (id: number, rules: unknown[]): StoredTask => ({
  id,
  name: `detect-${id}`,
  function: 'APPLY_RULES',
  definition: { rules },
});

test('the engine warns about the missing rules of the tasks its group runs, only', () => {
  const scope = {
    topologies: [topology(1, [1]), topology(2, [2], false), topology(3, [3], true, 'other')],
    pipelines: [pipeline(1, [1]), pipeline(2, [2]), pipeline(3, [3])],
    tasks: [applyRules(1, ['x']), applyRules(2, ['y']), applyRules(3, ['z'])],
  };
  const tasks = tasksRunBy('default', scope);
  assert.deepEqual(
    tasks.map((t) => t.id),
    [1],
  );
  assert.deepEqual(
    missingRules(tasks, new Set()).map((r) => r.message),
    ['task 1 (detect-1) applies rule `x`, which does not exist'],
  );
});

test('each missing rule with the task, where it is listed and the sentence; rules that exist and other tasks are not', () => {
  const tasks: StoredTask[] = [
    applyRules(4, ['known', 'gone', 7, 'also-gone']),
    { id: 5, name: 'pdl', function: 'PDL_EXPRESSION', definition: { pdl: 'a = 1', rules: ['gone'] } },
  ];
  assert.deepEqual(missingRules(tasks, new Set(['known'])), [
    {
      from: { kind: 'task', id: 4, name: 'detect-4' },
      to: { kind: 'rule', id: 'gone' },
      field: 'definition.rules[1]',
      message: 'task 4 (detect-4) applies rule `gone`, which does not exist',
    },
    {
      from: { kind: 'task', id: 4, name: 'detect-4' },
      to: { kind: 'rule', id: 'also-gone' },
      field: 'definition.rules[3]',
      message: 'task 4 (detect-4) applies rule `also-gone`, which does not exist',
    },
  ]);
});
