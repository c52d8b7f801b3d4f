import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { listOf, responseShape, taskSchema } from '@weir/contract';

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
