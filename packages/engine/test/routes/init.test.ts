import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startInProcessNode, type InProcessNode } from '../helpers/in-process-node.ts';

let node: InProcessNode;
before(async () => {
  node = await startInProcessNode();
});
after(() => node.stop());

const ada = {
  name: 'Ada',
  username: 'ada',
  email: 'ada@example.com',
  password: 'secret-1',
  roles: [{ name: 'admin' }],
};

test('GET /api/init is false before init (no token needed)', async () => {
  const res = await node.call('GET', '/api/init');
  assert.deepEqual([res.status, res.body], [200, { initialized: false }]);
});

test('POST /api/init with a body that fails its schema: 400 listing each violation', async () => {
  const res = await node.call('POST', '/api/init', { body: { username: 5 } });
  assert.equal(res.status, 400);
  const errors = ["body must have required property 'password'", 'body.username must be string'];
  assert.deepEqual(res.body, {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: errors.join('; '),
    errors,
  });
});

test('POST /api/init creates the first user (an admin) once; a second init is 409 with the spec text', async () => {
  const first = await node.call('POST', '/api/init', { body: ada });
  assert.equal(first.status, 201);
  assert.equal(first.headers.location, '/api/users');
  assert.deepEqual(first.body, {
    name: 'Ada',
    username: 'ada',
    email: 'ada@example.com',
    roles: [{ id: 1, name: 'admin' }],
  });

  const second = await node.call('POST', '/api/init', { body: { ...ada, username: 'eve' } });
  assert.equal(second.status, 409);
  assert.deepEqual(second.body, {
    status: 'CONFLICT',
    message: 'Resource already exists',
    debugMessage: 'API and users are already initialized.',
  });
  assert.deepEqual((await node.call('GET', '/api/init')).body, { initialized: true });
});
