import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pipelineSchema } from '../../src/resources/pipeline.ts';
import { ajv, compileValidator } from '../../src/validation/json-schema.ts';
import { describeRequestViolations, maxListedViolations } from '../../src/validation/violations.ts';

test('a record with 100,000 bad elements gets a bounded list of violations', () => {
  const validate = compileValidator({ ...pipelineSchema, properties: { ...pipelineSchema.properties, tasks: { type: 'array', items: { type: 'integer' } } } });
  const tasks = Array.from({ length: 100_000 }, () => 'x');
  const violations = validate({ id: 1, name: 'p', tasks });
  assert.equal(violations.length, maxListedViolations + 1);
  assert.equal(violations[0], 'tasks[0]: must be integer');
  assert.equal(violations.at(-1), `… and ${100_000 - maxListedViolations} more`);
});

test('request parts are worded as the API always did, bounded the same way', () => {
  const validate = ajv.compile({ type: 'object', required: ['messages'], properties: { messages: { type: 'array', items: { type: 'object', required: ['value'] } } } });
  assert.equal(validate({ messages: [{ value: 1 }, {}] }), false);
  assert.deepEqual(describeRequestViolations(validate.errors!, 'body'), ["body.messages.1 must have required property 'value'"]);
  assert.equal(validate({ messages: Array.from({ length: 50_000 }, () => ({})) }), false);
  const listed = describeRequestViolations(validate.errors!, 'body');
  assert.equal(listed.length, maxListedViolations + 1);
  assert.equal(listed.at(-1), `… and ${50_000 - maxListedViolations} more`);
});
