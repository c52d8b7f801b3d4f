import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode();
const bob = { username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'bob-pw' };
const bobShown = { name: 'Bob', username: 'bob', email: 'bob@example.com', roles: [{ id: 2, name: 'user' }] };
const noUser = { status: 'NOT_FOUND', message: 'Resource not found', debugMessage: 'Provided username does not exist' };

test('user routes refuse callers without a token, and user tokens on the admin routes', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/users', { adminOnly: true });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/users', { adminOnly: true, body: bob });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/users/alice', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'PUT', '/api/users/alice', { adminOnly: false, body: { name: 'A' } });
  await assertRefusals(t.node, t.tokens.user, 'DELETE', '/api/users/alice', { adminOnly: true });
});

test('POST /api/users creates (201, role user by default); again is 409; GET lists and reads', async () => {
  const { admin } = t.tokens;
  const res = await t.node.call('POST', '/api/users', { token: admin, body: bob });
  assert.deepEqual([res.status, res.headers.location, res.body], [201, '/api/users', bobShown]);
  const again = await t.node.call('POST', '/api/users', { token: admin, body: bob });
  assert.deepEqual(
    [again.status, again.body],
    [
      409,
      {
        status: 'CONFLICT',
        message: 'Resource already exists',
        debugMessage: 'User already exists, can not create a new one. Please use update (PUT) endpoint.',
      },
    ],
  );
  const all = await t.node.call('GET', '/api/users', { token: admin });
  assert.deepEqual(
    [all.status, all.body],
    [
      200,
      [
        { name: 'Admin', username: 'admin', email: 'admin@example.com', roles: [{ id: 1, name: 'admin' }] },
        { name: 'alice', username: 'alice', email: 'alice@example.com', roles: [{ id: 2, name: 'user' }] },
        bobShown,
      ],
    ],
  );
  const one = await t.node.call('GET', '/api/users/bob', { token: admin });
  assert.deepEqual([one.status, one.body], [200, bobShown]);
  const missing = await t.node.call('GET', '/api/users/nobody', { token: admin });
  assert.deepEqual([missing.status, missing.body], [404, noUser]);
});

test('a body that fails its schema: 400 listing each violation', async () => {
  const res = await t.node.call('POST', '/api/users', {
    token: t.tokens.admin,
    body: { ...bob, username: 5, roles: [{ name: 'root' }] },
  });
  const errors = [
    'body.username must be string',
    'body.roles.0.name must be equal to one of the allowed values: admin, user',
  ];
  assert.deepEqual(
    [res.status, res.body],
    [400, { status: 'BAD_REQUEST', message: 'Resource validation failed', debugMessage: errors.join('; '), errors }],
  );
});

test("a user reads and updates their own record, not another's (403)", async () => {
  const { user } = t.tokens;
  const own = await t.node.call('PUT', '/api/users/alice', { token: user, body: { name: 'Alice' } });
  assert.deepEqual(
    [own.status, own.body],
    [200, { name: 'Alice', username: 'alice', email: 'alice@example.com', roles: [{ id: 2, name: 'user' }] }],
  );
  for (const method of ['GET', 'PUT']) {
    const other = await t.node.call(method, '/api/users/admin', {
      token: user,
      body: method === 'PUT' ? { name: 'x' } : undefined,
    });
    assert.deepEqual([method, other.status, other.text], [method, 403, '']);
  }
});

test('PUT of an unknown user is 404; DELETE removes a user (204), then 404', async () => {
  const { admin } = t.tokens;
  const put = await t.node.call('PUT', '/api/users/nobody', { token: admin, body: { name: 'x' } });
  assert.deepEqual([put.status, put.body], [404, noUser]);
  const del = await t.node.call('DELETE', '/api/users/bob', { token: admin });
  assert.deepEqual([del.status, del.text], [204, '']);
  const again = await t.node.call('DELETE', '/api/users/bob', { token: admin });
  assert.deepEqual([again.status, again.body], [404, noUser]);
});
