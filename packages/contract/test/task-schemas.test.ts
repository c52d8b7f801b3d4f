import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taskFunctionNames, taskFunctions } from '../src/task-schemas.ts';
import { violationsOf } from './helpers/ajv.ts';

test('the ten task functions of the spec, each with its required keys', () => {
  assert.deepEqual(taskFunctionNames, [
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
  ]);
  const required = Object.fromEntries(taskFunctionNames.map((fn) => [fn, [...taskFunctions[fn].required]]));
  assert.deepEqual(required, {
    TIMESTAMP: ['field'],
    PARSE_KV: [],
    PARSE_CSV: ['fieldNames'],
    PARSE_CEF: [],
    EXTRACT: ['regex'],
    FILTER: ['type', 'value'],
    EVAL: ['eval'],
    PDL_EXPRESSION: ['pdl'],
    APPLY_RULES: ['rules'],
    OUTPUT_FIELD: ['field'],
  });
  for (const fn of taskFunctionNames)
    assert.equal(violationsOf(taskFunctions[fn])({}).length, taskFunctions[fn].required.length, fn);
});

test('sample definitions of each function are accepted', () => {
  const samples = {
    TIMESTAMP: { field: 'ts', format: 'yyyy-MM-dd', addNewField: false, timeFieldName: '_t' },
    PARSE_KV: { delimiter: ':', keepRaw: false, rawFieldName: 'raw' },
    PARSE_CSV: { fieldNames: 'a,b,c', delimiter: ';' },
    PARSE_CEF: { keepRaw: true },
    EXTRACT: { regex: '(?<user>\\w+)', field: 'msg' },
    FILTER: { type: 'pdl', value: 'user = "root"', action: 'drop' },
    EVAL: {
      eval: [
        { action: 'rename', field: 'a', value: 'b' },
        { condition: 'x > 1', action: 'set', field: 'y', value: '1' },
        { action: 'remove', field: 'z' },
      ],
    },
    PDL_EXPRESSION: { pdl: 'a = 1' },
    APPLY_RULES: { rules: ['r-1', 'r-2'], matchAll: false },
    OUTPUT_FIELD: { field: 'out' },
  };
  for (const fn of taskFunctionNames) assert.deepEqual(violationsOf(taskFunctions[fn])(samples[fn]), [], fn);
});

test('unknown keys, empty texts and wrong enums are refused; the misspelt delimeter is not a schema key', () => {
  assert.deepEqual(violationsOf(taskFunctions.PARSE_KV)({ delimeter: '=' }), ['/ additionalProperties']);
  assert.deepEqual(violationsOf(taskFunctions.PARSE_CSV)({ fieldNames: '', rawFieldName: '' }).sort(), [
    '/fieldNames minLength',
    '/rawFieldName minLength',
  ]);
  assert.deepEqual(violationsOf(taskFunctions.FILTER)({ type: 'glob', value: 'x', action: 'skip' }).sort(), [
    '/action enum',
    '/type enum',
  ]);
  assert.deepEqual(violationsOf(taskFunctions.APPLY_RULES)({ rules: ['r', ''] }), ['/rules/1 minLength']);
  assert.deepEqual(violationsOf(taskFunctions.TIMESTAMP)({ field: 'ts', addNewField: 'yes' }), ['/addNewField type']);
});

test('EVAL: rename and set need a value, remove does not', () => {
  const validate = violationsOf(taskFunctions.EVAL);
  assert.deepEqual(validate({ eval: [{ action: 'remove', field: 'a' }] }), []);
  assert.deepEqual(validate({ eval: [{ action: 'rename', field: 'a' }] }), ['/eval/0 required', '/eval/0 if']);
  assert.deepEqual(validate({ eval: [{ action: 'set', field: 'a' }] }), ['/eval/0 required', '/eval/0 if']);
  assert.deepEqual(validate({ eval: [{ action: 'copy', field: 'a', value: 'b' }] }), ['/eval/0/action enum']);
  assert.deepEqual(validate({ eval: [{ field: 'a', when: 'x' }] }).sort(), [
    '/eval/0 additionalProperties',
    '/eval/0 required',
  ]);
});
