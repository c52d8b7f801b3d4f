import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { storeSettings } from '../helpers/store-modes.ts';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

const strong = 'correct horse battery';
const debug = (res: { body: unknown }) => (res.body as { debugMessage?: string }).debugMessage;

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('password policy', () => {
  let t: TestNode;
  let admin: string;
  before(async () => {
    t = await startTestNode({ 'weir.auth.password-min-length': '12' });
    const init = await t.call('POST', '/api/init', { body: { username: 'root', password: 'a' } });
    assert.equal(init.status, 400);
    assert.equal(
      debug(init),
      'The password does not meet the password policy: it has 1 characters and must have at least 12 (setting weir.auth.password-min-length).',
    );
    assert.deepEqual((await t.call('GET', '/api/init')).body, { initialized: false }, 'a refused init stores nothing');
    assert.equal((await t.call('POST', '/api/init', { body: { username: 'root', password: strong } })).status, 201);
    admin = (await t.login('root', strong)).access_token;
  });
  after(() => t.stop());

  test('create: too short, the username, a common password each get 400 naming the rule; nothing is stored', async () => {
    const cases: [string, string, string][] = [
      ['dora', 'short-pw', 'it has 8 characters and must have at least 12 (setting weir.auth.password-min-length)'],
      ['dora.the.explorer', 'Dora.The.Explorer', 'it must not be the username'],
      ['dora', 'QWERTY123456', 'it is one of the most common passwords; choose one that is not'],
      ['dora', '1q2w3e4r5t6y', 'it is one of the most common passwords; choose one that is not'],
    ];
    for (const [username, password, rule] of cases) {
      const res = await t.call('POST', '/api/users', { token: admin, body: { username, password } });
      assert.equal(res.status, 400, password);
      assert.deepEqual(res.body, {
        status: 'BAD_REQUEST',
        message: 'Resource validation failed',
        debugMessage: `The password does not meet the password policy: ${rule}.`,
      });
      assert.equal((await t.call('GET', `/api/users/${username}`, { token: admin })).status, 404);
    }
    const ok = await t.call('POST', '/api/users', {
      token: admin,
      body: { username: 'dora', password: 'dora likes long walks' },
    });
    assert.equal(ok.status, 201);
  });

  test('change: a weak new password is refused and the old one keeps working; an empty one keeps it', async () => {
    const res = await t.call('PUT', '/api/users/dora', { token: admin, body: { password: 'password' } });
    assert.equal(res.status, 400);
    assert.match(debug(res)!, /must have at least 12/);
    assert.equal(
      (await t.call('PUT', '/api/users/dora', { token: admin, body: { password: '', name: 'Dora' } })).status,
      200,
    );
    await t.login('dora', 'dora likes long walks');
  });
});

test('users created under a shorter minimum keep logging in after the policy tightens', async () => {
  const first = await startTestNode({ 'weir.auth.password-min-length': '4' });
  const home = first.home;
  try {
    assert.equal((await first.call('POST', '/api/init', { body: { username: 'old', password: 'old1' } })).status, 201);
    await first.node.stop();
    const second = await startTestNode({ 'weir.auth.password-min-length': '12' }, home);
    try {
      await second.login('old', 'old1');
      const token = (await second.login('old', 'old1')).access_token;
      const weak = await second.call('PUT', '/api/users/old', { token, body: { password: 'old2' } });
      assert.equal(weak.status, 400);
    } finally {
      await second.node.stop();
    }
  } finally {
    await first.stop().catch(() => {});
  }
});

describe('sessions', () => {
  let t: TestNode;
  let admin: string;
  before(async () => {
    t = await startTestNode();
    admin = await t.initAdmin();
    await t.createUser(admin, 'sam');
  });
  after(() => t.stop());

  test('a password change revokes the access and refresh tokens issued before it', async () => {
    const old = await t.login('sam', 'sam-pw');
    assert.equal((await t.call('GET', '/api/users/sam', { token: old.access_token })).status, 200);
    const change = await t.call('PUT', '/api/users/sam', { token: old.access_token, body: { password: 'sam-new-pw' } });
    assert.equal(change.status, 200);
    const res = await t.call('GET', '/api/users/sam', { token: old.access_token });
    assert.equal(res.status, 403);
    assert.equal(res.text, '');
    const refresh = await t.call('GET', '/api/token/refresh', { token: old.refresh_token });
    assert.equal(refresh.status, 401);
    assert.deepEqual(refresh.body, { error_message: 'The refresh token is invalid or expired; log in again.' });
    const fresh = await t.login('sam', 'sam-new-pw');
    assert.equal((await t.call('GET', '/api/users/sam', { token: fresh.access_token })).status, 200);
  });

  test('a role change revokes; a change of name or email does not', async () => {
    const s = await t.login('sam', 'sam-new-pw');
    assert.equal((await t.call('PUT', '/api/users/sam', { token: admin, body: { name: 'Samuel' } })).status, 200);
    assert.equal((await t.call('GET', '/api/users/sam', { token: s.access_token })).status, 200);
    assert.equal(
      (await t.call('PUT', '/api/users/sam', { token: admin, body: { roles: [{ name: 'admin' }] } })).status,
      200,
    );
    assert.equal((await t.call('GET', '/api/users/sam', { token: s.access_token })).status, 403);
    assert.equal((await t.call('GET', '/api/token/refresh', { token: s.refresh_token })).status, 401);
  });

  test('deleting a user revokes its tokens, also when a user of that name is created again', async () => {
    await t.createUser(admin, 'gone');
    const s = await t.login('gone', 'gone-pw');
    assert.equal((await t.call('DELETE', '/api/users/gone', { token: admin })).status, 204);
    assert.equal((await t.call('GET', '/api/users/gone', { token: s.access_token })).status, 403);
    await t.createUser(admin, 'gone');
    assert.equal((await t.call('GET', '/api/users/gone', { token: s.access_token })).status, 403);
    assert.equal((await t.call('GET', '/api/token/refresh', { token: s.refresh_token })).status, 401);
  });

  test('POST /api/logout revokes that session (refresh and access tokens), not the other sessions', async () => {
    const a = await t.login('sam', 'sam-new-pw');
    const b = await t.login('sam', 'sam-new-pw');
    const refreshed = (await t.call('GET', '/api/token/refresh', { token: a.refresh_token })).body as {
      access_token: string;
      refresh_token: string;
    };
    assert.equal((await t.call('POST', '/api/logout')).status, 401);
    assert.equal((await t.call('POST', '/api/logout', { token: 'not-a-token' })).status, 403);
    const out = await t.call('POST', '/api/logout', { token: a.access_token });
    assert.equal(out.status, 204);
    assert.equal(out.text, '');
    for (const token of [a.access_token, refreshed.access_token])
      assert.equal((await t.call('GET', '/api/users/sam', { token })).status, 403);
    for (const token of [a.refresh_token, refreshed.refresh_token])
      assert.equal((await t.call('GET', '/api/token/refresh', { token })).status, 401);
    assert.equal(
      (await t.call('GET', '/api/users/sam', { token: b.access_token })).status,
      200,
      'another session lives on',
    );
    assert.equal(
      (await t.call('POST', '/api/logout', { token: b.refresh_token })).status,
      204,
      'the refresh token also logs out',
    );
    assert.equal((await t.call('GET', '/api/users/sam', { token: b.access_token })).status, 403);
  });
});

test('kafka store: a password change or a logout on one node revokes the tokens on the other', async () => {
  const shared = storeSettings('kafka');
  const a = await startTestNode(shared);
  const b = await startTestNode(shared);
  try {
    const admin = await a.initAdmin();
    await a.createUser(admin, 'kim');
    await eventually(
      async () =>
        (await b.call('POST', '/api/login', { body: { username: 'kim', password: 'kim-pw' } })).status === 200,
      'kim known on b',
    );
    const onB = await b.login('kim', 'kim-pw');
    const another = await b.login('kim', 'kim-pw');
    assert.equal(
      (await a.call('POST', '/api/logout', { token: another.access_token })).status,
      204,
      'a token of b is accepted by a',
    );
    await eventually(
      async () => (await b.call('GET', '/api/token/refresh', { token: another.refresh_token })).status === 401,
      'logout on a seen by b',
    );
    assert.equal((await b.call('GET', '/api/users/kim', { token: onB.access_token })).status, 200);
    assert.equal(
      (await a.call('PUT', '/api/users/kim', { token: admin, body: { password: 'kim-new-pw' } })).status,
      200,
    );
    await eventually(
      async () => (await b.call('GET', '/api/users/kim', { token: onB.access_token })).status === 403,
      'password change on a seen by b',
    );
    assert.equal((await b.call('GET', '/api/token/refresh', { token: onB.refresh_token })).status, 401);
  } finally {
    await b.stop();
    await a.stop();
  }
});
