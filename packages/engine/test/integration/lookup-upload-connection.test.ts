import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, describe, test } from 'node:test';
import { multipartBody } from '@weir/test-helpers/multipart';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

/** One request on the given agent (one kept-alive connection); rejects when no answer comes within 10 s. */
function post(
  agent: https.Agent,
  url: string,
  path: string,
  token: string,
  body: Buffer,
  contentType: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(path, url),
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': String(body.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Found by the fuzz suite (issue 13): an upload refused before its body was all read (two file
 * parts, a file over the limit) left the rest unread on a kept-alive connection, and the client's
 * next request on that connection never got an answer.
 */
describe('a refused lookup upload does not stall the connection', () => {
  let t: TestNode;
  let admin: string;
  before(async () => {
    t = await startTestNode({ 'weir.engine.autostart': 'false', 'weir.lookup.max-bytes': '2048' });
    admin = await t.initAdmin();
  });
  after(() => t.stop());

  for (const [name, parts] of [
    [
      'two file parts',
      [
        { name: 'id', value: 'two' },
        { name: 'file', value: 'a\n1\n', filename: 'a.csv' },
        { name: 'file', value: `a\n${'1\n'.repeat(300_000)}`, filename: 'b.csv' },
      ],
    ],
    [
      'a file over the limit',
      [
        { name: 'id', value: 'big' },
        { name: 'file', value: `a\n${'1\n'.repeat(300_000)}`, filename: 'big.csv' },
      ],
    ],
  ] as const) {
    test(`${name}: refused, and the next request on the same client is answered`, async () => {
      const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: 1 });
      try {
        const { body, contentType } = multipartBody(parts);
        const status = await post(agent, t.url, '/api/lookups', admin, body, contentType);
        assert.ok(status === 400 || status === 413, String(status));
        const ok = multipartBody([
          { name: 'id', value: `after-${parts[0].value}` },
          { name: 'file', value: 'a\n1\n', filename: 'a.csv' },
        ]);
        assert.equal(await post(agent, t.url, '/api/lookups', admin, ok.body, ok.contentType), 201);
      } finally {
        agent.destroy();
      }
    });
  }
});
