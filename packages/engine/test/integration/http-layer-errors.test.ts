import assert from 'node:assert/strict';
import https from 'node:https';
import tls from 'node:tls';
import { describe, test } from 'node:test';
import { useTestNode } from '@weir/test-helpers/test-node';

interface ErrorBody {
  status: string;
  message: string;
  debugMessage: string;
}

/** Sends raw bytes over TLS and returns everything the server wrote until it closed or `ms` passed. */
function raw(url: string, text: string, ms = 5000): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false });
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (c: Buffer) => {
      received += c.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(received)) done();
    });
    socket.once('secureConnect', () => socket.write(text));
    socket.once('close', done);
    socket.once('error', done);
  });
}

/** Sends a request as an HTTP client does (the whole request line written at once) and resolves with its answer. */
function request(url: string, path: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path, method: 'DELETE', rejectUnauthorized: false, agent: false },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function bodyOf(response: string): ErrorBody {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as ErrorBody;
}

/**
 * Found by the fuzz suite (issue 13): errors raised by the HTTP layer before any route runs (a path
 * that is not valid percent-encoding, a long path parameter, oversized headers) were Fastify's and
 * Node's own `{error, message, statusCode}` bodies, not the spec's error object; and ids the schemas
 * accept (up to 256 characters) could be created but not read, changed or deleted (paths over 100
 * characters per parameter were refused).
 */
describe('errors of the HTTP layer are error objects; every id the schemas accept is reachable', () => {
  let admin = '';
  const t = useTestNode({ 'weir.engine.autostart': 'false' }, async () => {
    admin = await t.initAdmin();
  });

  test('a rule with a 256-character id (the longest accepted) is read, updated and deleted through its path', async () => {
    const id = `r${'é'.repeat(255)}`;
    const rule = { id, name: 'long id', description: '', pdl: 'a = 1', enabled: true };
    assert.equal((await t.call('POST', '/api/rules', { token: admin, body: rule })).status, 201);
    const path = `/api/rules/${encodeURIComponent(id)}`;
    const got = await t.call('GET', path, { token: admin });
    assert.equal(got.status, 200, got.text);
    assert.equal((got.body as { id: string }).id, id);
    assert.equal((await t.call('PUT', path, { token: admin, body: { ...rule, name: 'renamed' } })).status, 200);
    assert.equal((await t.call('DELETE', path, { token: admin })).status, 204);
  });

  test('a path that is not valid percent-encoding is a 400 error object naming the path', async () => {
    const res = await t.call('GET', '/api/rules/%zz', { token: admin });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body, {
      status: 'BAD_REQUEST',
      message: 'Resource validation failed',
      debugMessage:
        "The request path '/api/rules/%zz' is not a valid URL: every % must start a %XX escape of UTF-8 bytes.",
    });
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test('a path parameter longer than the limit is a 414 error object naming the limit', async () => {
    const res = await t.call('GET', `/api/rules/${'x'.repeat(5000)}`, { token: admin });
    assert.equal(res.status, 414, res.text);
    assert.deepEqual(res.body, {
      status: 'URI_TOO_LONG',
      message: 'Request URI too long',
      debugMessage: 'A path parameter is longer than 4096 characters (percent-encoded); no id is that long.',
    });
  });

  test('headers larger than the server accepts are a 431 error object, and the connection is closed', async () => {
    const response = await raw(
      t.url,
      `GET /api/init HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.match(response, /^HTTP\/1\.1 431 /);
    assert.deepEqual(bodyOf(response), {
      status: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: 'Request header fields too large',
      debugMessage: 'The request line and headers are larger than 16384 bytes; send long values in the body.',
    });
  });

  test('a client still writing its over-long request line gets the 431, not a reset', async () => {
    // Found by the fuzz suite: a 24 KB path was sometimes cut off with `write ECONNRESET`, its answer lost.
    const { port } = new URL(t.url);
    // Half-open, as a client that writes its request before it reads the answer: the server's end does not stop its writes.
    const halfOpen: tls.ConnectionOptions & { allowHalfOpen: boolean } = { allowHalfOpen: true };
    const socket = tls.connect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false, ...halfOpen });
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    let received = '';
    let error: Error | undefined;
    socket.on('data', (c: Buffer) => (received += c.toString()));
    socket.on('error', (err) => (error = err));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`DELETE /api/pipelines/${'%F0%9F%98%80'.repeat(1500)}`);
    // The client goes on sending the rest of its request line after the server has seen enough of it.
    for (let i = 0; i < 20 && !error; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      socket.write('%F0%9F%98%80'.repeat(100));
    }
    socket.end(' HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await closed;
    assert.equal(error, undefined, `the connection was reset: ${error?.message}`);
    assert.match(received, /^HTTP\/1\.1 431 /);
    assert.equal(bodyOf(received).status, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
  });

  test('long request lines sent by an HTTP client, 20 at once, are each answered 431', async () => {
    const path = `/api/pipelines/${'%F0%9F%98%80'.repeat(2000)}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(t.url, path)));
    for (const res of answers) {
      assert.equal(res.status, 431, res.text);
      assert.equal((JSON.parse(res.text) as ErrorBody).status, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    }
  });

  test('a request that is not HTTP is a 400 error object, and the connection is closed', async () => {
    const response = await raw(t.url, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(response, /^HTTP\/1\.1 400 /);
    assert.equal(bodyOf(response).status, 'BAD_REQUEST');
    assert.match(
      bodyOf(response).debugMessage,
      /^The request is not valid HTTP\/1\.1 \(HPE_\w+\); the connection is closed\.$/,
    );
  });

  test('a body of a type the route does not take is a 415 error object naming that type', async () => {
    const res = await t.call('POST', '/api/rules', { token: admin, body: '<rule/>', contentType: 'application/xml' });
    assert.equal(res.status, 415, res.text);
    const body = res.body as ErrorBody;
    assert.equal(body.status, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(body.debugMessage, "Unsupported Content-Type 'application/xml'; send application/json.");
  });
});
