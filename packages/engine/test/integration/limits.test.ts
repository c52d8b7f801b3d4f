import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { multipartBody } from '@weir/test-helpers/multipart';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

const debug = (res: { body: unknown }) => (res.body as { debugMessage: string }).debugMessage;

/** A raw TLS connection to the node; resolves with everything the server sent once it closes. */
function rawConnection(url: string, send: string): { closed: Promise<string>; socket: tls.TLSSocket } {
  const { port } = new URL(url);
  const socket = tls.connect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false });
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  socket.once('secureConnect', () => socket.write(send));
  const closed = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(received));
    socket.once('error', () => resolve(received));
  });
  return { closed, socket };
}

describe('limits, each at its edge', () => {
  let t: TestNode;
  let admin: string;
  before(async () => {
    t = await startTestNode({
      'weir.engine.autostart': 'false',
      'weir.http.rate-limit-per-minute': '40',
      'weir.rules.max-count': '2',
      'weir.lookup.max-total-bytes': '2048',
      'weir.http.headers-timeout-seconds': '1',
      'weir.http.max-connections': '6',
    });
    admin = await t.initAdmin();
  });
  after(() => t.stop());

  test('number of rules: the limit is reached, one more is 400 naming the setting (single, bulk and Sigma import)', async () => {
    for (const id of ['a', 'b'])
      assert.equal(
        (
          await t.call('POST', '/api/rules', {
            token: admin,
            body: { id, name: id, description: '', pdl: 'x=1', annotations: [], enabled: true },
          })
        ).status,
        201,
      );
    const third = await t.call('POST', '/api/rules', {
      token: admin,
      body: { id: 'c', name: 'c', description: '', pdl: 'x=1', annotations: [], enabled: true },
    });
    assert.equal(third.status, 400);
    assert.equal(debug(third), 'Unable to store more than 2 rules (setting weir.rules.max-count); delete some first.');
    const bulk = await t.call('POST', '/api/bulk/rules', {
      token: admin,
      body: [
        { id: 'a', name: 'a2', description: '', pdl: 'x=1', annotations: [], enabled: true },
        { id: 'd', name: 'd', description: '', pdl: 'x=1', annotations: [], enabled: true },
      ],
    });
    assert.equal(bulk.status, 400);
    assert.equal((await t.call('GET', '/api/rules/d', { token: admin })).status, 404);
    const replace = await t.call('POST', '/api/bulk/rules', {
      token: admin,
      body: [{ id: 'a', name: 'a2', description: '', pdl: 'x=1', annotations: [], enabled: true }],
    });
    assert.equal(replace.status, 200, 'updating within the limit is fine');
    // A Sigma import stores rules as a bulk write does, under the same limit.
    const before = (await t.call('GET', '/api/rules', { token: admin })).body as unknown[];
    const sigma =
      'title: Rar use\nid: 6f3e2987-db24-4c78-a860-b4f4095a7095\nlogsource: {category: process_creation, product: windows}\n' +
      "detection:\n  selection:\n    Image|endswith: '\\\\rar.exe'\n  condition: selection\n";
    const imported = await t.call('POST', '/api/import/sigma', { token: admin, body: { yaml: sigma } });
    assert.equal(imported.status, 400, imported.text);
    assert.equal(
      debug(imported),
      'Unable to store more than 2 rules (setting weir.rules.max-count); delete some first.',
    );
    assert.equal(
      ((await t.call('GET', '/api/rules', { token: admin })).body as unknown[]).length,
      before.length,
      'nothing imported',
    );
  });

  test('total lookup size: an upload that would exceed it is 413 and stores nothing', async () => {
    const upload = (id: string, rows: number) => {
      const csv = `k,v\n${Array.from({ length: rows }, (_, i) => `key${i},value${i}`).join('\n')}\n`;
      const { body, contentType } = multipartBody([
        { name: 'id', value: id },
        { name: 'file', filename: `${id}.csv`, contentType: 'text/csv', value: csv },
      ]);
      return t.call('POST', '/api/lookups', { token: admin, body, contentType });
    };
    assert.equal((await upload('small', 10)).status, 201);
    const big = await upload('big', 120);
    assert.equal(big.status, 413, `${big.status} ${big.text}`);
    assert.match(debug(big), /more than the limit of 2048 bytes \(setting weir\.lookup\.max-total-bytes\)/);
    assert.equal((await t.call('GET', '/api/lookups/big', { token: admin })).status, 404);

    // The total follows deletes and replacements (each row is about 26 bytes of JSON).
    const replace = (id: string, rows: number) => {
      const csv = `k,v\n${Array.from({ length: rows }, (_, i) => `key${i},value${i}`).join('\n')}\n`;
      const { body, contentType } = multipartBody([
        { name: 'file', filename: `${id}.csv`, contentType: 'text/csv', value: csv },
      ]);
      return t.call('POST', `/api/lookups/${id}`, { token: admin, body, contentType });
    };
    assert.equal((await upload('mid', 60)).status, 201, 'small + mid fit');
    assert.equal((await upload('mid2', 60)).status, 413, 'small + mid + mid2 do not');
    assert.equal((await t.call('DELETE', '/api/lookups/mid', { token: admin })).status, 204);
    assert.equal((await upload('mid2', 60)).status, 201, "a deleted lookup's bytes are free again");
    assert.equal((await replace('small', 30)).status, 413, 'a replacement counts its new size');
    assert.equal((await replace('small', 5)).status, 200, 'and not the size it replaces');
    assert.equal((await t.call('DELETE', '/api/lookups/mid2', { token: admin })).status, 204);
    assert.equal((await t.call('DELETE', '/api/lookups/small', { token: admin })).status, 204);
  });

  test('a client that does not finish its headers in time gets 408 and is disconnected', async () => {
    const { closed } = rawConnection(t.url, 'GET /api/init HTTP/1.1\r\nHost: localhost\r\n');
    const response = await closed;
    assert.match(response, /^HTTP\/1\.1 408/);
    assert.equal(
      (JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { status: string }).status,
      'REQUEST_TIMEOUT',
      'an error object',
    );
  });

  test('connections beyond the maximum are closed at once', async () => {
    const opened = Array.from({ length: 10 }, () => rawConnection(t.url, ''));
    const outcomes = await Promise.all(
      opened.map(({ socket, closed }) =>
        Promise.race([
          new Promise<'open'>((r) => socket.once('secureConnect', () => r('open'))),
          closed.then(() => 'refused' as const),
        ]),
      ),
    );
    assert.ok(outcomes.filter((o) => o === 'open').length <= 6, outcomes.join(','));
    assert.ok(outcomes.filter((o) => o === 'refused').length >= 4, outcomes.join(','));
    for (const { socket } of opened) socket.destroy();
    await Promise.all(opened.map(({ closed }) => closed));
    assert.equal((await t.call('GET', '/api/init')).status, 200, 'served again once connections are free');
  });

  test('request rate per login session: one session at its limit is 429 with Retry-After; the same user signed in elsewhere, other users and probes are not', async () => {
    // a script signed in as rita uses up its session's budget …
    const script = await t.login('rita', 'rita-pw').catch(async () => {
      await t.createUser(admin, 'rita');
      return t.login('rita', 'rita-pw');
    });
    let status = 200;
    let n = 0;
    for (; n < 60 && status === 200; n++)
      status = (await t.call('GET', '/api/users/rita', { token: script.access_token })).status;
    assert.equal(status, 429);
    assert.ok(n > 30 && n <= 41, `refused after ${n} requests`);
    const refused = await t.call('GET', '/api/users/rita', { token: script.access_token });
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers['retry-after']);
    assert.ok(wait > 0 && wait <= 60, `Retry-After: ${refused.headers['retry-after']}`);
    assert.deepEqual(refused.body, {
      status: 'TOO_MANY_REQUESTS',
      message: 'Too many requests',
      debugMessage: `More than 40 API requests in a minute from this login session (setting weir.http.rate-limit-per-minute); try again in ${wait} s.`,
    });
    // … refreshing its tokens does not give it a new budget …
    const refreshed = await t.call('GET', '/api/token/refresh', { token: script.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    const next = (refreshed.body as { access_token: string }).access_token;
    assert.equal((await t.call('GET', '/api/users/rita', { token: next })).status, 429, 'same login session');
    // … and rita signing in at her console is not locked out by it
    const console = await t.login('rita', 'rita-pw');
    assert.equal((await t.call('GET', '/api/users/rita', { token: console.access_token })).status, 200);
    assert.equal((await t.call('GET', '/api/users', { token: admin })).status, 200, 'another user is not limited');
    assert.equal((await t.call('GET', '/health/live')).status, 200);
  });
});
