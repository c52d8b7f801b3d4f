import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taskDefaults, taskFunctionNames } from '@weir/contract';
import { checkTask, compileTask } from '../../src/tasks/compile-task.ts';
import { taskFactories } from '../../src/tasks/registry.ts';
import { TaskDefinitionError, isTaskDefinitionError } from '../../src/tasks/task-definition-error.ts';

test('the registry has exactly the ten functions of tasks.md, each with its defaults', () => {
  const ten = [
    'TIMESTAMP',
    'PARSE_KV',
    'PARSE_CSV',
    'PARSE_CEF',
    'EXTRACT',
    'FILTER',
    'EVAL',
    'PDL_EXPRESSION',
    'APPLY_RULES',
    'OUTPUT_FIELD',
  ];
  assert.deepEqual(Object.keys(taskFactories), ten);
  assert.deepEqual(taskFunctionNames, ten);
  assert.deepEqual(taskDefaults, {
    TIMESTAMP: { format: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", addNewField: true, timeFieldName: '_time' },
    PARSE_KV: { delimiter: '=', keepRaw: true, rawFieldName: '_raw' },
    PARSE_CSV: { delimiter: ',', keepRaw: true, rawFieldName: '_raw' },
    PARSE_CEF: { keepRaw: true, rawFieldName: '_raw' },
    EXTRACT: { field: '_raw', keepRaw: true, rawFieldName: '_raw' },
    FILTER: { action: 'keep' },
    EVAL: {},
    PDL_EXPRESSION: {},
    APPLY_RULES: { matchAll: true },
    OUTPUT_FIELD: {},
  });
});

test('a compiled task carries its identity; a missing definition is {} (PARSE_KV accepts it)', () => {
  const task = compileTask({ id: 3, name: 'kv', function: 'PARSE_KV' });
  assert.deepEqual(
    { id: task.id, name: task.name, function: task.function },
    { id: 3, name: 'kv', function: 'PARSE_KV' },
  );
  assert.deepEqual(task.run({ value: 'a=1', timestamp: 0 }), {
    kind: 'records',
    records: [{ value: { a: 1, _raw: 'a=1' }, timestamp: 0 }],
  });
});

test('unknown functions and invalid definitions throw a branded TaskDefinitionError listing every violation', () => {
  let caught: unknown;
  try {
    compileTask({ id: 1, name: 'x', function: 'SPLIT' });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof TaskDefinitionError && isTaskDefinitionError(caught));
  assert.deepEqual(caught.violations, [
    'function: "SPLIT" is not a task function; accepted: TIMESTAMP, PARSE_KV, PARSE_CSV, PARSE_CEF, EXTRACT, FILTER, EVAL, PDL_EXPRESSION, APPLY_RULES, OUTPUT_FIELD',
  ]);
  assert.equal(
    caught.message,
    'task 1 (x): function: "SPLIT" is not a task function; accepted: TIMESTAMP, PARSE_KV, PARSE_CSV, PARSE_CEF, EXTRACT, FILTER, EVAL, PDL_EXPRESSION, APPLY_RULES, OUTPUT_FIELD',
  );
  assert.deepEqual(checkTask({ id: 1, name: 'x', function: 'FILTER', definition: [] }), [
    'definition: must be an object',
  ]);
  assert.deepEqual(checkTask({ id: 1, name: 'x', function: 'FILTER', definition: { type: 'regex', value: 'a' } }), []);
});

test('the delimeter alias is accepted; giving both spellings is rejected', () => {
  assert.deepEqual(
    checkTask({ id: 1, name: 'x', function: 'PARSE_CSV', definition: { fieldNames: 'a', delimeter: ';' } }),
    [],
  );
  assert.deepEqual(
    checkTask({ id: 1, name: 'x', function: 'PARSE_KV', definition: { delimeter: ':', delimiter: '=' } }),
    ['definition.delimeter: is not an accepted field; accepted: delimiter, keepRaw, rawFieldName'],
  );
});
