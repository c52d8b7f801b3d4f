import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicSpecSchema } from '../src/topics.ts';
import { anyJson, listOf, responseShape } from '../src/response-shape.ts';
import { taskSchema, topologySchema } from '../src/resources.ts';
import { violationsOf } from './helpers/ajv.ts';

test('a record schema as an answer: the same fields and types, nothing required, every object open', () => {
  const shape = responseShape(topologySchema) as {
    required?: unknown;
    additionalProperties: unknown;
    properties: Record<string, { type?: unknown; items?: { additionalProperties?: unknown } }>;
  };
  assert.equal(shape.required, undefined);
  assert.equal(shape.additionalProperties, true);
  assert.deepEqual(Object.keys(shape.properties), Object.keys(topologySchema.properties));
  assert.equal(shape.properties.pipelines!.type, 'array');
  assert.equal(shape.properties.output!.items!.additionalProperties, true);
  assert.equal(
    (responseShape(taskSchema) as { allOf?: unknown }).allOf,
    undefined,
    'checks that only validate are left out',
  );
});

test('only type, description and enum of a field are kept; limits, patterns and required are left to the request', () => {
  assert.deepEqual(responseShape(topicSpecSchema), {
    type: 'object',
    description: 'an object with name, numberOfPartitions, replicationFactor and options',
    properties: {
      name: { type: 'string' },
      numberOfPartitions: { type: 'integer' },
      replicationFactor: { type: 'integer' },
      options: {
        type: ['object', 'null'],
        description: 'an object of setting name to string value',
        additionalProperties: { type: ['string', 'number', 'boolean'] },
      },
      compact: { type: 'boolean', description: 'earlier form of options["cleanup.policy"] = "compact"' },
    },
    additionalProperties: true,
  });
  assert.deepEqual(
    responseShape({
      anyOf: [
        { type: 'string', enum: ['a'] },
        { type: 'object', required: ['x'] },
      ],
    }),
    {
      anyOf: [
        { type: 'string', enum: ['a'] },
        { type: 'object', additionalProperties: true },
      ],
    },
  );
});

test('an answer with fields added, or missing, still matches its shape; a field of the wrong type does not', () => {
  const validate = violationsOf(responseShape(topologySchema));
  assert.deepEqual(validate({ id: 1, name: 't', addedLater: { x: 1 }, output: [{ name: 'o', extra: true }] }), []);
  assert.deepEqual(validate({}), []);
  assert.deepEqual(validate({ id: '1', enabled: 'yes' }), ['/id type', '/enabled type']);
});

test('listOf: an array of the shape, with its description; anyJson: any value', () => {
  assert.deepEqual(listOf(taskSchema, 'the tasks'), {
    type: 'array',
    items: responseShape(taskSchema),
    description: 'the tasks',
  });
  assert.deepEqual(listOf(taskSchema), { type: 'array', items: responseShape(taskSchema) });
  const validate = violationsOf(listOf(taskSchema));
  assert.deepEqual(validate([{ id: 1, function: 'EVAL', definition: { anything: [1] } }]), []);
  assert.deepEqual(validate({}), ['/ type']);
  const any = violationsOf(anyJson);
  for (const value of [null, 1, 'x', [1], { a: 1 }]) assert.deepEqual(any(value), [], JSON.stringify(value));
});
