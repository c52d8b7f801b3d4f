import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { listOf, responseShape, taskSchema, topologySchema } from '@weir/contract';

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

test('Fastify serialises an answer with the shape without dropping or changing a field', async () => {
  const app = Fastify();
  const task = {
    id: 3,
    name: 't',
    function: 'EVAL',
    definition: { eval: [{ action: 'set', field: 'a', value: '1' }], extra: { deep: [1, 'x'] } },
    addedLater: true,
  };
  app.get('/one', { schema: { response: { 200: responseShape(taskSchema) } } }, async () => task);
  app.get('/many', { schema: { response: { 200: listOf(taskSchema) } } }, async () => [task, { ...task, id: 4 }]);
  try {
    assert.deepEqual((await app.inject('/one')).json(), task);
    assert.deepEqual((await app.inject('/many')).json(), [task, { ...task, id: 4 }]);
  } finally {
    await app.close();
  }
});
