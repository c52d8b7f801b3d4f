import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { startTestNode, useTestNode } from '@weir/test-helpers/test-node';

const fixed = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000 ; includeSubDomains',
};

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('init, login and tokens over HTTPS', () => {
  const t = useTestNode({ 'weir.auth.login-max-failures': '3' });

  test('GET /api/init is false before init, and carries the fixed headers', async () => {
    const res = await t.call('GET', '/api/init');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { initialized: false });
    assert.match(String(res.headers['content-type']), /^application\/json/);
    for (const [name, value] of Object.entries(fixed)) assert.equal(res.headers[name], value, name);
  });

  // The answers of POST /api/init (201 with the user, 409 with the spec text) are checked in process
  // (routes/init.test.ts); here the first user is created over HTTPS and signs in.
  test('POST /api/init over HTTPS creates the first user, who signs in and is the only user', async () => {
    const user = {
      name: 'Ada',
      username: 'ada',
      email: 'ada@example.com',
      password: 'secret-1',
      roles: [{ name: 'admin' }],
    };
    assert.equal((await t.call('POST', '/api/init', { body: user })).status, 201);
    assert.equal((await t.call('POST', '/api/init', { body: { ...user, username: 'eve' } })).status, 409);
    const users = await t.call('GET', '/api/users', { token: (await t.login('ada', 'secret-1')).access_token });
    assert.deepEqual(
      (users.body as { username: string }[]).map((u) => u.username),
      ['ada'],
    );
  });

  test('login answers a token pair; a wrong password or unknown user is 401 with an empty body', async () => {
    const ok = await t.call('POST', '/api/login', { body: { username: 'ada', password: 'secret-1' } });
    assert.equal(ok.status, 200);
    const pair = ok.body as { access_token: string; refresh_token: string };
    assert.deepEqual(Object.keys(pair).sort(), ['access_token', 'refresh_token']);
    assert.notEqual(pair.access_token, pair.refresh_token);
    for (const body of [
      { username: 'ada', password: 'wrong' },
      { username: 'nobody', password: 'x' },
    ]) {
      const bad = await t.call('POST', '/api/login', { body });
      assert.equal(bad.status, 401);
      assert.equal(bad.text, '');
    }
  });

  test('repeated failed logins for one user and address are refused with 429', async () => {
    await t.call('POST', '/api/users', {
      token: (await t.login('ada', 'secret-1')).access_token,
      body: { username: 'target', password: 'right-pw', name: 'T', email: 't@x' },
    });
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.call('POST', '/api/login', { body: { username: 'target', password: 'no' } })).status, 401);
    }
    const limited = await t.call('POST', '/api/login', { body: { username: 'target', password: 'right-pw' } });
    assert.equal(limited.status, 429);
    const body = limited.body as { status: string; message: string; debugMessage: string };
    assert.equal(body.status, 'TOO_MANY_REQUESTS');
    assert.match(body.debugMessage, /^Too many failed logins for this user from this address; try again in \d+ s\.$/);
    const wait = Number(limited.headers['retry-after']);
    assert.ok(wait > 0 && wait <= 300 && body.debugMessage.includes(`in ${wait} s.`), `Retry-After: ${wait}`);
    // Another user from the same address is not affected.
    assert.equal((await t.call('POST', '/api/login', { body: { username: 'ada', password: 'secret-1' } })).status, 200);
    // Nor the same user from another address, as named by a trusted proxy (the console's UI server on
    // loopback, weir.http.trusted-proxies): the browser behind it is another client.
    const viaConsole = (address: string) =>
      t.call('POST', '/api/login', {
        body: { username: 'target', password: 'right-pw' },
        headers: { 'x-forwarded-for': address },
      });
    assert.equal((await viaConsole('192.0.2.7')).status, 200, 'another browser behind the console signs in');
    for (let i = 0; i < 3; i++) {
      const failed = await t.call('POST', '/api/login', {
        body: { username: 'target', password: 'no' },
        headers: { 'x-forwarded-for': '192.0.2.8' },
      });
      assert.equal(failed.status, 401);
    }
    assert.equal((await viaConsole('192.0.2.8')).status, 429, 'the browser that failed is limited');
    assert.equal((await viaConsole('192.0.2.7')).status, 200, 'the other browser is not');
  });

  test('refresh with a refresh token gives a new pair; a bad one is 401 with error_message and the ERROR header', async () => {
    const pair = await t.login('ada', 'secret-1');
    const ok = await t.call('GET', '/api/token/refresh', { token: pair.refresh_token });
    assert.equal(ok.status, 200);
    const next = ok.body as { access_token: string };
    assert.equal((await t.call('GET', '/api/users', { token: next.access_token })).status, 200);
    for (const token of ['garbage', pair.access_token]) {
      const bad = await t.call('GET', '/api/token/refresh', { token });
      assert.equal(bad.status, 401);
      const text = 'The refresh token is invalid or expired; log in again.';
      assert.deepEqual(bad.body, { error_message: text });
      assert.equal(bad.headers.error, text);
    }
    const missing = await t.call('GET', '/api/token/refresh');
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.error, (missing.body as { error_message: string }).error_message);
  });

  test('invalid, forged, tampered, alg:none and refresh-as-access tokens get 403 with no body and the fixed headers', async () => {
    const pair = await t.login('ada', 'secret-1');
    const [header, payload] = pair.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-secret-of-this-node-123456'));
    const tampered = `${header}.${b64url({ ...claims, sub: 'someone-else' })}.${pair.access_token.split('.')[2]}`;
    for (const token of ['garbage', none, forged, tampered, pair.refresh_token]) {
      const res = await t.call('GET', '/api/users', { token });
      assert.equal(res.status, 403, token);
      assert.equal(res.text, '');
      for (const [name, value] of Object.entries(fixed)) assert.equal(res.headers[name], value, name);
    }
  });

  test('a missing Authorization header is 401 with WWW-Authenticate: Bearer and no body', async () => {
    const res = await t.call('GET', '/api/users');
    assert.equal(res.status, 401);
    assert.equal(res.text, '');
    assert.equal(res.headers['www-authenticate'], 'Bearer');
  });

  test('an unknown /api route is a 404 error object with the fixed headers', async () => {
    const res = await t.call('GET', '/api/no-such-thing', { token: (await t.login('ada', 'secret-1')).access_token });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, {
      status: 'NOT_FOUND',
      message: 'Resource not found',
      debugMessage: 'No API route GET /api/no-such-thing',
    });
    for (const [name, value] of Object.entries(fixed)) assert.equal(res.headers[name], value, name);
  });

  test('malformed JSON is a 400 error object naming the problem; an oversized body is 413', async () => {
    const bad = await t.call('POST', '/api/login', { body: '{"username": "ada", ', contentType: 'application/json' });
    assert.equal(bad.status, 400);
    const body = bad.body as { status: string; message: string; debugMessage: string };
    assert.equal(body.status, 'BAD_REQUEST');
    assert.equal(body.message, 'Resource validation failed');
    assert.match(body.debugMessage, /^The request body is not valid JSON: /);
    const small = await startTestNode({ 'weir.http.body-limit': '2048' });
    try {
      const big = await small.call('POST', '/api/login', { body: { username: 'x', password: 'y'.repeat(5000) } });
      assert.equal(big.status, 413);
      assert.deepEqual(big.body, {
        status: 'PAYLOAD_TOO_LARGE',
        message: 'Request body too large',
        debugMessage: 'The request body is larger than the limit of 2048 bytes (setting weir.http.body-limit).',
      });
    } finally {
      await small.stop();
    }
  });

  test('a body that does not match the schema is a 400 listing each violation', async () => {
    const res = await t.call('POST', '/api/users', {
      token: (await t.login('ada', 'secret-1')).access_token,
      body: { username: 5, roles: [{ name: 'root' }] },
    });
    assert.equal(res.status, 400);
    const body = res.body as { debugMessage: string; errors: string[] };
    assert.ok(
      body.errors.some((e) => e === "body must have required property 'password'"),
      body.debugMessage,
    );
    assert.ok(
      body.errors.some((e) => e === 'body.username must be string'),
      body.debugMessage,
    );
    assert.ok(
      body.errors.some((e) => e === 'body.roles.0.name must be equal to one of the allowed values: admin, user'),
      body.debugMessage,
    );
  });
});

describe('token lifetimes', () => {
  test('an expired access token is refused with 403', async () => {
    const t = await startTestNode({ 'weir.auth.access-token-seconds': '10' });
    try {
      await t.initAdmin();
      const { access_token } = await t.login('admin', 'admin-pw');
      assert.equal((await t.call('GET', '/api/users', { token: access_token })).status, 200);
      await new Promise((r) => setTimeout(r, 11_000));
      const res = await t.call('GET', '/api/users', { token: access_token });
      assert.equal(res.status, 403);
      assert.equal(res.text, '');
    } finally {
      await t.stop();
    }
  });
});

describe('plain HTTP', () => {
  test('server.ssl.enabled=false serves HTTP with the fixed headers but no HSTS', async () => {
    const t = await startTestNode({ 'server.ssl.enabled': 'false' });
    try {
      assert.match(t.url, /^http:/);
      const res = await t.call('GET', '/api/init');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['strict-transport-security'], undefined);
    } finally {
      await t.stop();
    }
  });
});
