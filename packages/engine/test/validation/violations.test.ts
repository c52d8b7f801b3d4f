import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pipelineSchema, stringId, topicNameSchema } from '@weir/contract';
import { ajv, compileValidator } from '../../src/validation/json-schema.ts';
import {
  describeRequestViolations,
  describeValueViolations,
  maxListedViolations,
} from '../../src/validation/violations.ts';

test('a record with 100,000 bad elements gets a bounded list of violations', () => {
  const validate = compileValidator({
    ...pipelineSchema,
    properties: { ...pipelineSchema.properties, tasks: { type: 'array', items: { type: 'integer' } } },
  });
  const tasks = Array.from({ length: 100_000 }, () => 'x');
  const violations = validate({ id: 1, name: 'p', tasks });
  assert.equal(violations.length, maxListedViolations + 1);
  assert.equal(violations[0], 'tasks[0]: must be integer');
  assert.equal(violations.at(-1), `… and ${100_000 - maxListedViolations} more`);
});

test('request parts are worded as the API always did, bounded the same way', () => {
  const validate = ajv.compile({
    type: 'object',
    required: ['messages'],
    properties: { messages: { type: 'array', items: { type: 'object', required: ['value'] } } },
  });
  assert.equal(validate({ messages: [{ value: 1 }, {}] }), false);
  assert.deepEqual(describeRequestViolations(validate.errors!, 'body'), [
    "body.messages.1 must have required property 'value'",
  ]);
  assert.equal(validate({ messages: Array.from({ length: 50_000 }, () => ({})) }), false);
  const listed = describeRequestViolations(validate.errors!, 'body');
  assert.equal(listed.length, maxListedViolations + 1);
  assert.equal(listed.at(-1), `… and ${50_000 - maxListedViolations} more`);
});

test('values are worded with what was found, one violation per field, unknown fields first, then in field order', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2 },
      size: { type: 'integer', minimum: 1, maximum: 9 },
      on: { type: 'boolean' },
    },
    required: ['name', 'size'],
    additionalProperties: false,
  } as const;
  const validate = ajv.compile({ type: 'array', items: schema });
  assert.equal(
    validate([
      { on: 'yes', size: 'big', typo: 1 },
      { name: 'ab', size: 10 },
      { name: 'a', size: 0.5 },
    ]),
    false,
  );
  assert.deepEqual(describeValueViolations(validate.errors!, { fields: Object.keys(schema.properties) }), [
    '$[0].typo: unknown field; accepted: name, size, on',
    '$[0].name: is required',
    '$[0].size: must be an integer >= 1, found string "big"',
    '$[0].on: must be true or false, found string "yes"',
    '$[1].size: must be an integer <= 9, found 10',
    '$[2].name: must NOT have fewer than 2 characters',
    '$[2].size: must be an integer >= 1, found number 0.5',
  ]);
  const explained = describeValueViolations(validate.errors!, {
    fields: ['name', 'size', 'on'],
    explain: (e) => (e.keyword === 'minLength' ? 'is too short' : undefined),
  });
  assert.equal(explained[5], '$[2].name: is too short');
});

test('a record violation names the field, or (record) for a value that is the whole record', () => {
  assert.deepEqual(compileValidator(topicNameSchema)('..'), ['(record): must not be "." or ".."']);
  assert.deepEqual(compileValidator(topicNameSchema)('a b'), [
    '(record): "a b" does not match ^[A-Za-z0-9._-]{1,249}$',
  ]);
  assert.deepEqual(compileValidator({ type: 'object', properties: { id: stringId } })({ id: 'a/b' }), [
    'id: "a/b" does not match ^[^\\s/?#%\\\\]+$',
  ]);
});
