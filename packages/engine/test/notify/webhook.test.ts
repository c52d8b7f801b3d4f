import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { postWebhook } from '../../src/notify/webhook.ts';
import { startWebhookReceiver, type WebhookReceiver } from '@weir/test-helpers/webhook-receiver';

let receiver: WebhookReceiver;
before(async () => {
  receiver = await startWebhookReceiver();
});
after(() => receiver.close());

const body = Buffer.from('{"a":1}');
const headers = { 'content-type': 'application/json', 'x-test': 'yes' };

test('a POST to a receiver whose certificate is trusted: its status, body and headers as sent', async () => {
  receiver.answer = () => ({ status: 202 });
  const outcome = await postWebhook({
    url: `${receiver.url}/hook`,
    body,
    headers,
    ca: [receiver.cert],
    timeoutMs: 5000,
  });
  assert.deepEqual(outcome, { status: 202, retryAfter: undefined, detail: 'HTTP 202: ok' });
  const got = receiver.requests.at(-1)!;
  assert.deepEqual(
    [got.path, got.body.toString(), got.headers['x-test'], got.headers['content-length']],
    ['/hook', '{"a":1}', 'yes', '7'],
  );
});

test('a 503 with Retry-After is answered as such', async () => {
  receiver.answer = () => ({ status: 503, headers: { 'retry-after': '7' } });
  const outcome = await postWebhook({ url: receiver.url, body, headers, ca: [receiver.cert], timeoutMs: 5000 });
  assert.deepEqual(outcome, { status: 503, retryAfter: '7', detail: 'HTTP 503: unavailable' });
});

test("an untrusted certificate is refused (Node's default CAs do not know it); nothing reaches the receiver", async () => {
  const count = receiver.requests.length;
  const outcome = await postWebhook({ url: receiver.url, body, headers, ca: undefined, timeoutMs: 5000 });
  assert.ok('error' in outcome && /self-signed certificate/.test(outcome.error), JSON.stringify(outcome));
  assert.equal(receiver.requests.length, count);
});

test('a refused connection and a plain http:// URL are errors', async () => {
  const closed = await startWebhookReceiver();
  const url = closed.url;
  await closed.close();
  const refused = await postWebhook({ url, body, headers, ca: [receiver.cert], timeoutMs: 5000 });
  assert.ok('error' in refused && /ECONNREFUSED/.test(refused.error), JSON.stringify(refused));
  const plain = await postWebhook({ url: 'http://127.0.0.1:1/', body, headers, ca: undefined, timeoutMs: 5000 });
  assert.deepEqual(plain, { error: 'not an https:// URL: http:' });
});
