import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode({ 'weir.auth.login-max-failures': '3' });
const refusedRefresh = 'The refresh token is invalid or expired; log in again.';

test('POST /api/login answers a token pair that opens the API', async () => {
  const res = await t.node.call('POST', '/api/login', { body: { username: 'alice', password: 'alice-pw' } });
  assert.equal(res.status, 200);
  const pair = res.body as { access_token: string; refresh_token: string };
  assert.deepEqual(Object.keys(pair).sort(), ['access_token', 'refresh_token']);
  const me = await t.node.call('GET', '/api/users/alice', { token: pair.access_token });
  assert.equal(me.status, 200);
});

test('a wrong password or an unknown user: 401 with an empty body; a body without a password: 400', async () => {
  for (const body of [
    { username: 'alice', password: 'wrong' },
    { username: 'nobody', password: 'x' },
  ]) {
    const res = await t.node.call('POST', '/api/login', { body });
    assert.deepEqual([res.status, res.text], [401, '']);
  }
  const res = await t.node.call('POST', '/api/login', { body: { username: 'alice' } });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: "body must have required property 'password'",
    errors: ["body must have required property 'password'"],
  });
});

test('repeated failed logins for one user and address: 429 naming the wait', async () => {
  await t.node.createUser(t.tokens.admin, 'target');
  for (let i = 0; i < 3; i++) {
    const res = await t.node.call('POST', '/api/login', { body: { username: 'target', password: 'no' } });
    assert.equal(res.status, 401);
  }
  const limited = await t.node.call('POST', '/api/login', { body: { username: 'target', password: 'target-pw' } });
  assert.equal(limited.status, 429);
  const body = limited.body as { debugMessage: string };
  assert.match(body.debugMessage, /^Too many failed logins for this user from this address; try again in \d+ s\.$/);
  assert.deepEqual(
    { ...body, debugMessage: '…' },
    { status: 'TOO_MANY_REQUESTS', message: 'Too many requests', debugMessage: '…' },
  );
});

test('GET /api/token/refresh: a new pair for a refresh token; 401 with error_message and ERROR otherwise', async () => {
  const pair = await t.node.login('alice', 'alice-pw');
  const ok = await t.node.call('GET', '/api/token/refresh', { token: pair.refresh_token });
  assert.equal(ok.status, 200);
  assert.deepEqual(Object.keys(ok.body as object).sort(), ['access_token', 'refresh_token']);
  for (const token of ['garbage', pair.access_token]) {
    const bad = await t.node.call('GET', '/api/token/refresh', { token });
    assert.deepEqual(
      [bad.status, bad.body, bad.headers.error],
      [401, { error_message: refusedRefresh }, refusedRefresh],
    );
  }
  const missing = await t.node.call('GET', '/api/token/refresh');
  const text = 'Refresh token is missing: send Authorization: Bearer <REFRESH_TOKEN>.';
  assert.deepEqual([missing.status, missing.body, missing.headers.error], [401, { error_message: text }, text]);
});

test('POST /api/logout: 204, then the session is refused; no header 401, an invalid token 403', async () => {
  const pair = await t.node.login('alice', 'alice-pw');
  const out = await t.node.call('POST', '/api/logout', { token: pair.access_token });
  assert.deepEqual([out.status, out.text], [204, '']);
  assert.deepEqual((await t.node.call('GET', '/api/users/alice', { token: pair.access_token })).status, 403);
  const refresh = await t.node.call('GET', '/api/token/refresh', { token: pair.refresh_token });
  assert.deepEqual([refresh.status, refresh.body], [401, { error_message: refusedRefresh }]);

  const none = await t.node.call('POST', '/api/logout');
  assert.deepEqual([none.status, none.text, none.headers['www-authenticate']], [401, '', 'Bearer']);
  const invalid = await t.node.call('POST', '/api/logout', { token: 'garbage' });
  assert.deepEqual([invalid.status, invalid.text], [403, '']);
});

test('logins and logouts are audited', async () => {
  const res = await t.node.call('GET', '/api/audit?kind=session', { token: t.tokens.admin });
  const entries = (res.body as { entries: { kind: string; action: string; id: string; user: string }[] }).entries;
  assert.deepEqual(
    entries.map((e) => [e.kind, e.action, e.id, e.user]),
    [['session', 'logout', 'alice', 'alice']],
  );
});
