import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taskDefaults } from '../src/task-defaults.ts';
import { taskFunctionNames, taskFunctions } from '../src/task-schemas.ts';
import { violationsOf } from './helpers/ajv.ts';

test('the documented defaults of every definition key (tasks.md)', () => {
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

test("every default is a valid value of its key in the function's schema, and no required key has one", () => {
  assert.deepEqual(Object.keys(taskDefaults), taskFunctionNames);
  for (const fn of taskFunctionNames) {
    const schema = taskFunctions[fn];
    const required: readonly string[] = schema.required;
    const defaults: Record<string, unknown> = taskDefaults[fn];
    for (const key of Object.keys(defaults)) assert.ok(!required.includes(key), `${fn}.${key} is required`);
    // the defaults with only the required keys of a sample value: valid, so nothing a default sets is refused
    const sample = Object.fromEntries(required.map((key) => [key, key === 'eval' ? [] : key === 'rules' ? [] : 'x']));
    const withType = fn === 'FILTER' ? { ...sample, type: 'regex' } : sample;
    assert.deepEqual(violationsOf(schema)({ ...withType, ...defaults }), [], fn);
  }
});
