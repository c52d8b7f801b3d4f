import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  collections,
  configKinds,
  lookupKind,
  pipelineSchema,
  resourceKindInfos,
  ruleSchema,
  taskSchema,
  topologySchema,
} from '../src/resources.ts';
import { violationsOf } from './helpers/ajv.ts';

const integerRule = 'an integer from 0 to 9007199254740991';
const stringRule = 'a non-empty text of at most 256 characters without whitespace, /, ?, #, % or \\';
const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';

test('the kinds registry: paths, collections, names, id types and rules, schemas and limits', () => {
  const kind = (path: string, one: string, idType: string, schema: object | undefined) => ({
    path,
    collection: path,
    names: { one, many: path },
    idField: 'id',
    idType,
    idRule: idType === 'integer' ? integerRule : stringRule,
    schema,
  });
  assert.deepEqual(configKinds, {
    tasks: kind('tasks', 'task', 'integer', taskSchema),
    pipelines: kind('pipelines', 'pipeline', 'integer', pipelineSchema),
    topologies: kind('topologies', 'topology', 'integer', topologySchema),
    rules: { ...kind('rules', 'rule', 'string', ruleSchema), countLimitSetting: 'weir.rules.max-count' },
  });
  assert.deepEqual(lookupKind, kind('lookups', 'lookup', 'string', undefined));
  assert.deepEqual(
    resourceKindInfos.map((k) => k.path),
    ['lookups', 'rules', 'tasks', 'pipelines', 'topologies'],
    'a bundle writes what a later kind refers to first',
  );
  assert.deepEqual(collections, [
    'meta',
    'users',
    'tasks',
    'pipelines',
    'topologies',
    'rules',
    'lookups',
    'nodes',
    'silences',
    'notifiers',
  ]);
  for (const k of resourceKindInfos) assert.ok((collections as readonly string[]).includes(k.collection), k.path);
});

test('a rule: id, name, pdl and enabled required; the earlier datamodel kept; unknown fields refused', () => {
  const validate = violationsOf(ruleSchema);
  assert.deepEqual(validate({ id: 'r-1', name: 'R', pdl: 'a = 1', enabled: true, datamodel: '' }), []);
  assert.deepEqual(validate({ id: 'r', name: 'R', pdl: 'a', enabled: true, annotations: ['attack.t1059'] }), []);
  assert.deepEqual(validate({ id: 'a/b', name: '', pdl: '', enabled: 'yes', extra: 1 }).sort(), [
    '/ additionalProperties',
    '/enabled type',
    '/id pattern',
    '/name minLength',
    '/pdl minLength',
  ]);
  assert.deepEqual(validate({}).sort(), ['/ required', '/ required', '/ required', '/ required']);
});

test("a task: its definition is checked against its function's schema", () => {
  const validate = violationsOf(taskSchema);
  assert.deepEqual(validate({ id: 1, name: 'kv', function: 'PARSE_KV', definition: {} }), []);
  assert.deepEqual(validate({ id: 2, name: 'csv', function: 'PARSE_CSV', definition: { fieldNames: 'a,b' } }), []);
  assert.deepEqual(validate({ id: 3, name: 'csv', function: 'PARSE_CSV', definition: {} }), [
    '/definition required',
    '/ if',
  ]);
  assert.deepEqual(validate({ id: 4, name: 'x', function: 'GREP', definition: {} }), ['/function enum']);
  assert.deepEqual(validate({ id: 5, name: 'f', function: 'FILTER', definition: { type: 'glob', value: 'x' } }), [
    '/definition/type enum',
    '/ if',
  ]);
});

test('a pipeline: integer task ids, in order', () => {
  const validate = violationsOf(pipelineSchema);
  assert.deepEqual(validate({ id: 0, name: 'p', tasks: [3, 1, 2] }), []);
  assert.deepEqual(validate({ id: 1, name: 'p', tasks: [1, 1.5, '2'] }), ['/tasks/1 type', '/tasks/2 type']);
  assert.deepEqual(validate({ id: 1, name: 'p', tasks: Array.from({ length: 1001 }, (_, i) => i) }), [
    '/tasks maxItems',
  ]);
});

test('a topology: input and outputs name legal topics with known serdes', () => {
  const validate = violationsOf(topologySchema);
  const endpoint = (name: string) => ({ name, keySerde: S, valueSerde: S });
  const topology = {
    id: 1,
    name: 't',
    pipelines: [1],
    enabled: true,
    group: 'default',
    input: endpoint('in'),
    output: [endpoint('out')],
  };
  assert.deepEqual(validate(topology), []);
  assert.deepEqual(
    validate({ ...topology, input: { ...endpoint('..'), keySerde: 'x' }, output: [endpoint('a b')] }).sort(),
    ['/input/keySerde enum', '/input/name not', '/output/0/name pattern'],
  );
  assert.deepEqual(validate({ ...topology, group: '' }), ['/group minLength']);
});
