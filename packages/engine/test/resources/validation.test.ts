import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pipelineSchema, ruleSchema, taskFunctionNames, taskSchema, topologySchema } from '@weir/contract';
import { latestRule } from '../../src/resources/rule.ts';
import { latestTopology } from '../../src/resources/topology.ts';
import { latestTask } from '../../src/tasks/task-definitions.ts';
import { compileValidator, fieldPath } from '../../src/validation/json-schema.ts';

const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const validateTask = compileValidator(taskSchema);
const validateTopology = compileValidator(topologySchema);

test('field paths read like the record', () => {
  assert.equal(fieldPath('/definition/eval/0/action'), 'definition.eval[0].action');
  assert.equal(fieldPath('', 'name'), 'name');
  assert.equal(fieldPath('/output/2', 'keySerde'), 'output[2].keySerde');
  assert.equal(fieldPath('/a~1b'), 'a/b');
});

test('all ten task functions are known, with required parameters enforced', () => {
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
  const required: Record<string, string[]> = {
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
  };
  for (const fn of taskFunctionNames) {
    const errors = validateTask({ id: 1, name: 'x', function: fn, definition: {} });
    assert.deepEqual(
      errors,
      required[fn]!.map((f) => `definition.${f}: is required`),
      fn,
    );
  }
});

test('every violation is listed, not only the first', () => {
  assert.deepEqual(
    validateTask({
      id: -1,
      name: 5,
      function: 'FILTER',
      definition: { type: 'glob', value: 1, action: 'keep', x: 1 },
      extra: 1,
    }).sort(),
    [
      'extra: is not an accepted field; accepted: id, name, description, function, definition',
      'id: must be >= 0',
      'name: must be string',
      'definition.x: is not an accepted field; accepted: type, value, action',
      'definition.type: must be one of regex, pdl',
      'definition.value: must be string',
    ].sort(),
  );
});

test('delimeter is an alias of delimiter; both at once is refused', () => {
  assert.deepEqual(latestTask({ id: 1, function: 'PARSE_KV', definition: { delimeter: '=' } }).definition, {
    delimiter: '=',
  });
  const both = latestTask({ id: 1, name: 'x', function: 'PARSE_KV', definition: { delimeter: '=', delimiter: ':' } });
  assert.deepEqual(validateTask(both), [
    'definition.delimeter: is not an accepted field; accepted: delimiter, keepRaw, rawFieldName',
  ]);
  assert.deepEqual(latestTask({ id: 1, name: 'x', function: 'PARSE_CEF' }).definition, {});
});

test('topology: earlier string forms and missing serdes/group/enabled become the latest form', () => {
  const latest = latestTopology({ id: 1, name: 't', input: 'in', output: ['a', { name: 'b', keySerde: 'x' }] });
  assert.deepEqual(latest, {
    id: 1,
    name: 't',
    pipelines: [],
    enabled: true,
    group: 'default',
    input: { name: 'in', keySerde: S, valueSerde: S },
    output: [
      { name: 'a', keySerde: S, valueSerde: S },
      { name: 'b', keySerde: 'x', valueSerde: S },
    ],
  });
  assert.equal(validateTopology(latest).length, 1, 'the unknown serde is still reported');
  assert.deepEqual(latestTopology({ enabled: false, group: 'g', output: 'x' }), {
    enabled: false,
    group: 'g',
    pipelines: [],
    input: undefined,
    output: 'x',
  });
  assert.deepEqual(validateTopology(latestTopology({ id: 1, name: 't', input: 5 })), ['input: must be object']);
});

test('rules keep datamodel and default enabled; pipelines need integer task ids', () => {
  const validateRule = compileValidator(ruleSchema);
  assert.deepEqual(validateRule(latestRule({ id: 'r', name: 'r', pdl: 'a', datamodel: '' })), []);
  assert.deepEqual(validateRule(latestRule({ id: 'a/b', name: 'r', pdl: 'a' })), [
    'id: "a/b" does not match ^[^\\s/?#%\\\\]+$',
  ]);
  const validatePipeline = compileValidator(pipelineSchema);
  assert.deepEqual(validatePipeline({ id: 1, name: 'p', tasks: [1, 1.5, '2'] }), [
    'tasks[1]: must be integer',
    'tasks[2]: must be integer',
  ]);
});
