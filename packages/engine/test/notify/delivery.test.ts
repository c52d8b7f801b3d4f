import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliver, deliveryId, webhookBody, type DeliveryPorts } from '../../src/notify/delivery.ts';
import { readAlert } from '@weir/contract';
import type { NotifiedAlert } from '../../src/notify/matcher.ts';
import { signatureValid } from '../../src/notify/signature.ts';
import type { WebhookOutcome, WebhookRequest } from '../../src/notify/webhook.ts';

const alert = readAlert({
  user: 'alice',
  _rule: { id: 'r', name: 'R', annotations: [] },
  _alert: { id: 'f'.repeat(32), severity: 'high', techniques: [], time: 1, source: null },
}) as NotifiedAlert;
const target = { id: 'soc', url: 'https://receiver.example/hook', secret: 'a-secret-of-16-chars', ca: undefined };
const policy = { maxAttempts: 4, initialMs: 100, maxMs: 1000, timeoutMs: 5000 };

/** Ports on a virtual clock: the answers in order, the waits and requests recorded. */
function ports(answers: WebhookOutcome[], rateWaits: number[] = []) {
  const requests: WebhookRequest[] = [];
  const sleeps: number[] = [];
  const retries: string[] = [];
  let now = 0;
  const p: DeliveryPorts = {
    post: async (request) => {
      requests.push(request);
      return answers.shift() ?? { error: 'no more answers' };
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    rateLimit: () => rateWaits.shift() ?? 0,
    retried: (_n, attempt, error, wait) => void retries.push(`${attempt}: ${error} (+${wait})`),
  };
  return { p, requests, sleeps, retries };
}

const signal = new AbortController().signal;
const unavailable: WebhookOutcome = { status: 503, retryAfter: undefined, detail: 'HTTP 503: down' };
const ok: WebhookOutcome = { status: 200, retryAfter: undefined, detail: 'HTTP 200' };

test('the request: the body names the notifier and the delivery and holds the alert; signed; the headers', async () => {
  const { p, requests } = ports([ok]);
  assert.deepEqual(await deliver(target, alert, policy, p, signal), { sent: true, attempts: 1 });
  const [request] = requests;
  const body = JSON.parse(request!.body.toString());
  assert.deepEqual(body, { notifier: 'soc', delivery: deliveryId('soc', alert.id), alert: alert.record });
  assert.deepEqual(request!.body, webhookBody('soc', alert));
  assert.deepEqual(Object.keys(request!.headers).sort(), [
    'content-type',
    'user-agent',
    'x-weir-alert-id',
    'x-weir-delivery',
    'x-weir-signature',
  ]);
  assert.equal(request!.headers['content-type'], 'application/json');
  assert.equal(request!.headers['x-weir-alert-id'], alert.id);
  assert.match(request!.headers['x-weir-delivery']!, /^[0-9a-f]{32}$/);
  assert.ok(signatureValid(target.secret, request!.body, request!.headers['x-weir-signature']));
  assert.deepEqual([request!.url, request!.timeoutMs], [target.url, 5000]);
});

test('the delivery id: the same for every attempt, another per notifier and per alert', () => {
  assert.equal(deliveryId('soc', 'a'), deliveryId('soc', 'a'));
  assert.notEqual(deliveryId('soc', 'a'), deliveryId('ops', 'a'));
  assert.notEqual(deliveryId('soc', 'a'), deliveryId('soc', 'b'));
});

test('network errors, 5xx and 429 are retried with backoff; Retry-After is honoured', async () => {
  const { p, sleeps, retries, requests } = ports([
    { error: 'connect ECONNREFUSED' },
    unavailable,
    { status: 429, retryAfter: '3', detail: 'HTTP 429' },
    ok,
  ]);
  assert.deepEqual(await deliver(target, alert, policy, p, signal), { sent: true, attempts: 4 });
  assert.deepEqual(sleeps, [100, 200, 3000]);
  assert.deepEqual(retries, ['1: connect ECONNREFUSED (+100)', '2: HTTP 503: down (+200)', '3: HTTP 429 (+3000)']);
  assert.equal(new Set(requests.map((r) => r.body.toString())).size, 1, 'the same body every time');
});

test('after the last attempt: not sent, with the last error', async () => {
  const { p, requests, sleeps } = ports([unavailable, unavailable, unavailable, { error: 'socket hang up' }]);
  assert.deepEqual(await deliver(target, alert, policy, p, signal), {
    sent: false,
    attempts: 4,
    lastError: 'socket hang up',
  });
  assert.equal(requests.length, 4);
  assert.deepEqual(sleeps, [100, 200, 400]);
});

test('another 4xx ends the delivery at once', async () => {
  const { p, requests } = ports([{ status: 401, retryAfter: undefined, detail: 'HTTP 401: bad signature' }, ok]);
  assert.deepEqual(await deliver(target, alert, policy, p, signal), {
    sent: false,
    attempts: 1,
    lastError: 'HTTP 401: bad signature',
  });
  assert.equal(requests.length, 1);
});

test('the rate limit: each attempt waits for what it says', async () => {
  const { p, sleeps } = ports([unavailable, ok], [0, 2500]);
  assert.deepEqual(await deliver(target, alert, policy, p, signal), { sent: true, attempts: 2 });
  assert.deepEqual(sleeps, [100, 2500]);
});

test('an aborted delivery rejects and sends nothing more', async () => {
  const abort = new AbortController();
  const { p, requests } = ports([unavailable, ok]);
  p.sleep = async () => abort.abort(new Error('stopping'));
  await assert.rejects(deliver(target, alert, policy, p, abort.signal), /stopping/);
  assert.equal(requests.length, 1);
});
