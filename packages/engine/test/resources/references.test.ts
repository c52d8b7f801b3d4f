import assert from 'node:assert/strict';
import { test } from 'node:test';
import { danglingReferences } from '../../src/resources/references.ts';
import type { StoredPipeline } from '../../src/resources/pipeline.ts';
import type { StoredRule } from '../../src/resources/rule.ts';
import type { StoredTask } from '../../src/resources/task.ts';
import type { StoredTopology } from '../../src/resources/topology.ts';

const binding = (name: string) => ({ name, keySerde: 'String', valueSerde: 'String' });
const topology = (
  id: number,
  pipelines: number[],
  input: string,
  enabled = true,
  group = 'default',
): StoredTopology => ({
  id,
  name: `topo-${id}`,
  pipelines,
  enabled,
  group,
  input: binding(input),
  output: [binding('out')],
});
const pipeline = (id: number, tasks: number[]): StoredPipeline => ({ id, name: `pipe-${id}`, tasks });
const applyRules = (id: number, rules: string[]): StoredTask => ({
  id,
  name: `detect-${id}`,
  function: 'APPLY_RULES',
  definition: { rules },
});
const pdlTask = (id: number, pdl: string): StoredTask => ({
  id,
  name: `pdl-${id}`,
  function: 'PDL_EXPRESSION',
  definition: { pdl },
});
const rule = (id: string, pdl = 'a = 1'): StoredRule => ({ id, name: id, pdl, enabled: true });

test('every dangling reference, in order, with where it is and a sentence naming both ends', () => {
  const references = danglingReferences({
    topologies: [topology(2, [1, 9], 'events'), topology(1, [1], 'gone-topic')],
    pipelines: [pipeline(1, [1, 2, 7])],
    tasks: [applyRules(1, ['failed-logon', 'failed', 'other']), pdlTask(2, 'lookup assets ip OUTPUT owner')],
    rules: [rule('failed-logon'), rule('enriched', 'lookup risk ip OUTPUT score | score > 3'), rule('other')],
    lookupExists: (id) => id === 'risk-known',
    topics: new Set(['events']),
  });
  assert.deepEqual(
    references.map((r) => [r.from.kind, r.from.id, r.to.kind, r.to.id, r.field, r.message]),
    [
      [
        'topology',
        1,
        'topic',
        'gone-topic',
        'input.name',
        'topology 1 (topo-1) reads topic `gone-topic`, which does not exist',
      ],
      ['topology', 2, 'pipeline', 9, 'pipelines[1]', 'topology 2 (topo-2) runs pipeline 9, which does not exist'],
      ['pipeline', 1, 'task', 7, 'tasks[2]', 'pipeline 1 (pipe-1) runs task 7, which does not exist'],
      [
        'task',
        1,
        'rule',
        'failed',
        'definition.rules[1]',
        'task 1 (detect-1) applies rule `failed`, which does not exist',
      ],
      ['task', 2, 'lookup', 'assets', 'definition', 'task 2 (pdl-2) uses lookup `assets`, which does not exist'],
      ['rule', 'enriched', 'lookup', 'risk', 'pdl', 'rule `enriched` uses lookup `risk`, which does not exist'],
    ],
  );
  assert.deepEqual(references[0]!.from, { kind: 'topology', id: 1, name: 'topo-1' });
});

test('topics are not checked when no topic list is given; a complete configuration has none', () => {
  const scope = {
    topologies: [topology(1, [1], 'anything')],
    pipelines: [pipeline(1, [1])],
    tasks: [applyRules(1, ['r'])],
    rules: [rule('r', 'lookup risk ip OUTPUT score')],
    lookupExists: (id: string) => id === 'risk',
  };
  assert.deepEqual(danglingReferences(scope), []);
});
