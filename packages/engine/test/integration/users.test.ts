import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestNode, useTestNode } from '@weir/test-helpers/test-node';

const bob = { name: 'Bob', username: 'bob', email: 'bob@example.com', password: 'bob-pw', roles: [{ name: 'user' }] };
const bobShown = { name: 'Bob', username: 'bob', email: 'bob@example.com', roles: [{ id: 2, name: 'user' }] };

describe('users', () => {
  let admin: string;
  const t = useTestNode({}, async () => {
    admin = await t.initAdmin();
  });

  test('create answers 201 with Location and the user without password; a second create is 409', async () => {
    const res = await t.call('POST', '/api/users', { token: admin, body: bob });
    assert.equal(res.status, 201);
    assert.equal(res.headers.location, '/api/users');
    assert.deepEqual(res.body, bobShown);
    const again = await t.call('POST', '/api/users', { token: admin, body: bob });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      status: 'CONFLICT',
      message: 'Resource already exists',
      debugMessage: 'User already exists, can not create a new one. Please use update (PUT) endpoint.',
    });
  });

  test('read all and read one never show a password; a missing user is 404 with the spec text', async () => {
    const all = await t.call('GET', '/api/users', { token: admin });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, [
      { name: 'Admin', username: 'admin', email: 'admin@example.com', roles: [{ id: 1, name: 'admin' }] },
      bobShown,
    ]);
    assert.deepEqual((await t.call('GET', '/api/users/bob', { token: admin })).body, bobShown);
    const missing = await t.call('GET', '/api/users/nobody', { token: admin });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      status: 'NOT_FOUND',
      message: 'Resource not found',
      debugMessage: 'Provided username does not exist',
    });
  });

  test('update with an empty password keeps the old one; with a new one changes it; missing user is 404', async () => {
    const res = await t.call('PUT', '/api/users/bob', { token: admin, body: { ...bob, name: 'Robert', password: '' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ...bobShown, name: 'Robert' });
    assert.equal((await t.call('POST', '/api/login', { body: { username: 'bob', password: 'bob-pw' } })).status, 200);
    await t.call('PUT', '/api/users/bob', { token: admin, body: { ...bob, password: 'new-pw' } });
    assert.equal((await t.call('POST', '/api/login', { body: { username: 'bob', password: 'bob-pw' } })).status, 401);
    assert.equal((await t.call('POST', '/api/login', { body: { username: 'bob', password: 'new-pw' } })).status, 200);
    const missing = await t.call('PUT', '/api/users/nobody', { token: admin, body: { ...bob, username: 'nobody' } });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      status: 'NOT_FOUND',
      message: 'Resource not found',
      debugMessage: 'Provided username does not exist',
    });
    const renamed = await t.call('PUT', '/api/users/bob', { token: admin, body: { ...bob, username: 'bobby' } });
    assert.equal(renamed.status, 400);
    assert.equal(
      (renamed.body as { debugMessage: string }).debugMessage,
      'The username in the path (bob) differs from the username in the body (bobby); a username cannot be changed.',
    );
  });

  test('a user reads and updates their own record but cannot change roles or reach others', async () => {
    const token = (await t.login('bob', 'new-pw')).access_token;
    assert.equal((await t.call('GET', '/api/users/bob', { token })).status, 200);
    const self = await t.call('PUT', '/api/users/bob', { token, body: { email: 'robert@example.com' } });
    assert.equal(self.status, 200);
    assert.equal((self.body as { email: string }).email, 'robert@example.com');
    const promote = await t.call('PUT', '/api/users/bob', { token, body: { roles: [{ name: 'admin' }] } });
    assert.equal(promote.status, 400);
    assert.equal(
      (promote.body as { debugMessage: string }).debugMessage,
      'Only an admin may change roles; leave roles out or unchanged when updating your own user.',
    );
    for (const [method, path] of [
      ['GET', '/api/users/admin'],
      ['PUT', '/api/users/admin'],
      ['GET', '/api/users'],
      ['DELETE', '/api/users/admin'],
    ] as const) {
      const res = await t.call(method, path, { token, body: method === 'PUT' ? { name: 'x' } : undefined });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.text, '');
    }
  });

  test('deleting oneself is 400 with the spec text; deleting another user is 204; a missing one 404', async () => {
    const self = await t.call('DELETE', '/api/users/admin', { token: admin });
    assert.equal(self.status, 400);
    assert.deepEqual(self.body, {
      status: 'BAD_REQUEST',
      message: 'Resource validation failed',
      debugMessage: 'Authenticated user is not allowed to delete herself',
    });
    await t.call('POST', '/api/users', { token: admin, body: { ...bob, username: 'carol' } });
    const del = await t.call('DELETE', '/api/users/carol', { token: admin });
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    assert.equal((await t.call('GET', '/api/users/carol', { token: admin })).status, 404);
    assert.equal((await t.call('DELETE', '/api/users/carol', { token: admin })).status, 404);
  });

  test('the last admin cannot be demoted; with a second admin it can', async () => {
    const demote = await t.call('PUT', '/api/users/admin', { token: admin, body: { roles: [{ name: 'user' }] } });
    assert.equal(demote.status, 400);
    assert.deepEqual(demote.body, {
      status: 'BAD_REQUEST',
      message: 'Resource validation failed',
      debugMessage:
        'Unable to remove the admin role from admin: it is the last user with the admin role, and Weir must keep at least one admin.',
    });
    await t.call('POST', '/api/users', {
      token: admin,
      body: { ...bob, username: 'dora', roles: [{ name: 'admin' }] },
    });
    const ok = await t.call('PUT', '/api/users/admin', { token: admin, body: { roles: [{ name: 'user' }] } });
    assert.equal(ok.status, 200);
    const dora = (await t.login('dora', 'bob-pw')).access_token;
    // admin is now a plain user: its old token no longer opens admin routes.
    assert.equal((await t.call('GET', '/api/users', { token: admin })).status, 403);
    const last = await t.call('PUT', '/api/users/dora', { token: dora, body: { roles: [] } });
    assert.equal(last.status, 400);
    assert.equal(
      (await t.call('PUT', '/api/users/admin', { token: dora, body: { roles: [{ name: 'admin' }] } })).status,
      200,
    );
    // A role change revokes the user's tokens (docs/security.md, "Sessions"): admin logs in again.
    admin = (await t.login('admin', 'admin-pw')).access_token;
  });

  test('concurrent inits create exactly one user: one 201, the others 409', async () => {
    const fresh = await startTestNode();
    try {
      const results = await Promise.all(
        ['u1', 'u2', 'u3', 'u4'].map((username) => fresh.call('POST', '/api/init', { body: { ...bob, username } })),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409]);
      const token = (
        await fresh.login((results.find((r) => r.status === 201)!.body as { username: string }).username, 'bob-pw')
      ).access_token;
      assert.equal(((await fresh.call('GET', '/api/users', { token })).body as unknown[]).length, 1);
    } finally {
      await fresh.stop();
    }
  });

  test('concurrent creates of one username: one 201, the others 409', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => t.call('POST', '/api/users', { token: admin, body: { ...bob, username: 'racer' } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409]);
  });

  test('init makes the first user an admin even when the request names another role', async () => {
    const fresh = await startTestNode();
    try {
      const res = await fresh.call('POST', '/api/init', { body: { ...bob, roles: [{ name: 'user' }] } });
      assert.equal(res.status, 201);
      assert.deepEqual((res.body as { roles: unknown }).roles, [
        { id: 1, name: 'admin' },
        { id: 2, name: 'user' },
      ]);
    } finally {
      await fresh.stop();
    }
  });
});
