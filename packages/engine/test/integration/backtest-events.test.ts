import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import type { BacktestStatus } from '@weir/contract';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { notFound } from '@weir/test-helpers/error-bodies';
import { createTopics } from '@weir/test-helpers/kafka';
import { openEventStream, type EventStream } from '@weir/test-helpers/sse';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { testBootstrap, useTestNode } from '@weir/test-helpers/test-node';

/**
 * `GET /api/backtests/{id}/events` over real HTTPS, a backtest reading a real topic: the progress
 * while it runs, the last status, the end of the stream; a cancel; an unknown id.
 */
const input = uniqueTopic('backtest-sse');
const total = 20_000;
const t0 = Date.UTC(2020, 5, 1);
let token: string;
let other: string;

const tn = useTestNode(isolatedEngine('backtest-sse'), async () => {
  token = await tn.initAdmin();
  other = await tn.createUser(token, 'bob');
  await createTopics([input], 2);
  // idempotent: a retried batch the broker did write is not written twice (the range holds `total` records)
  const producer = new Producer({
    clientId: 'weir-test-backtest-sse',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
  });
  try {
    for (let i = 0; i < total; i += 5000)
      await producer.send({
        messages: Array.from({ length: 5000 }, (_, k) => {
          const n = i + k;
          const event = { action: n % 3 === 0 ? 'ok' : 'fail', user: `u${n % 50}`, _time: t0 + n * 1000 };
          return {
            topic: input,
            partition: n % 2,
            value: Buffer.from(JSON.stringify(event)),
            timestamp: BigInt(t0 + n * 1000),
          };
        }),
        acks: ProduceAcks.ALL,
      });
  } finally {
    await producer.close();
  }
});

/** Correlation rules: each event meets every one of them (a backtest of some seconds, to follow). */
const candidate = {
  rules: Array.from({ length: 30 }, (_, i) => ({
    id: `burst${i}`,
    pdl: `action="fail" | event_count timespan=10m group_by user where _aggregation.value >= ${i + 3}`,
  })),
};

async function start(): Promise<string> {
  const res = await tn.call('POST', '/api/backtests', {
    token,
    body: { candidate, source: { topic: input, from: t0, to: t0 + total * 1000 } },
  });
  assert.equal(res.status, 202, res.text);
  return (res.body as BacktestStatus).id;
}

function assertStream(stream: EventStream): void {
  assert.equal(stream.status, 200);
  assert.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
}

async function statuses(stream: EventStream, onEach?: (s: BacktestStatus) => Promise<void>): Promise<BacktestStatus[]> {
  const seen: BacktestStatus[] = [];
  for await (const e of stream.events) {
    assert.equal(e.event, 'status');
    const s = JSON.parse(e.data) as BacktestStatus;
    seen.push(s);
    await onEach?.(s);
  }
  return seen;
}

test('the events of a backtest: its progress (events read, share, events/s) while it runs, then its last status; the stream ends', async () => {
  const id = await start();
  const stream = await openEventStream(tn.url, `/api/backtests/${id}/events`, token);
  assertStream(stream);
  const seen = await statuses(stream);
  const last = seen.at(-1)!;
  const steps = JSON.stringify(seen.map((x) => [x.state, x.progress]));
  assert.equal(last.state, 'done', `${last.error}: ${steps}`);
  assert.deepEqual(last.progress, { ...last.progress, eventsRead: total, share: 1 }, steps);
  assert.equal(last.result!.events, total);
  // the last event is the status the API answers
  assert.deepEqual((await tn.call('GET', `/api/backtests/${id}`, { token })).body, last);
  // before it: the backtest running, its progress moving forward, at most 4 steps a second
  const running = seen.slice(0, -1);
  assert.ok(running.length >= 2, `progress events: ${JSON.stringify(seen.map((s) => s.progress))}`);
  for (const s of running) {
    assert.ok(s.state === 'queued' || s.state === 'running', s.state);
    assert.equal(s.id, id);
    assert.equal(s.result, undefined);
  }
  const moving = running.filter((s) => s.state === 'running' && s.progress.eventsRead > 0);
  assert.ok(moving.length >= 1, 'a progress step while running');
  assert.ok(
    moving.some((s) => s.progress.eventsRead < total),
    'a step before the whole range was read',
  );
  for (const s of moving) {
    assert.ok(s.progress.eventsRead <= total, `${s.progress.eventsRead} read`);
    assert.equal(s.progress.share, s.progress.eventsRead / total);
    assert.ok(s.progress.eventsPerSecond > 0);
  }
  const read = seen.map((s) => s.progress.eventsRead);
  assert.deepEqual(
    read,
    [...read].sort((a, b) => a - b),
    'events read never goes back',
  );
  const seconds = (Date.parse(last.ended!) - Date.parse(last.created)) / 1000;
  assert.ok(moving.length <= 4 * seconds + 2, `${moving.length} progress steps in ${seconds} s: ${steps}`);

  // an ended backtest's stream: its status, then the end
  const again = await openEventStream(tn.url, `/api/backtests/${id}/events`, token);
  assertStream(again);
  assert.deepEqual(await statuses(again), [last]);
});

test('a backtest cancelled while it is followed: the stream ends with its cancelled status', async () => {
  const id = await start();
  const stream = await openEventStream(tn.url, `/api/backtests/${id}/events`, token);
  assertStream(stream);
  let cancelled: BacktestStatus | undefined;
  const seen = await statuses(stream, async (s) => {
    if (cancelled || s.state !== 'running' || s.progress.eventsRead === 0) return;
    const res = await tn.call('DELETE', `/api/backtests/${id}`, { token });
    assert.equal(res.status, 200);
    cancelled = res.body as BacktestStatus;
  });
  assert.ok(cancelled, 'cancelled while running');
  assert.equal(cancelled.state, 'cancelled');
  const last = seen.at(-1)!;
  assert.equal(last.state, 'cancelled');
  assert.equal(last.error, 'cancelled by admin');
  assert.equal(last.result, undefined);
  assert.ok(last.progress.eventsRead < total);
  assert.deepEqual(
    seen.filter((s) => s.state === 'cancelled'),
    [last],
    'one cancelled status, the last',
  );
  // it stays cancelled: what the API answers now is the last event
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual((await tn.call('GET', `/api/backtests/${id}`, { token })).body, last);
});

test("the events of an unknown backtest, or of another user's: 404 with the API's error body", async () => {
  const missing = await openEventStream(tn.url, '/api/backtests/nope/events', token);
  assert.equal(missing.status, 404);
  const body = notFound('No backtest nope; backtests are kept for an hour after they end, on the node that ran them.');
  assert.deepEqual(JSON.parse(await missing.text()), body);
  const id = await start();
  const foreign = await openEventStream(tn.url, `/api/backtests/${id}/events`, other);
  assert.equal(foreign.status, 404);
  assert.deepEqual(
    JSON.parse(await foreign.text()),
    notFound(`No backtest ${id}; backtests are kept for an hour after they end, on the node that ran them.`),
  );
  await tn.call('DELETE', `/api/backtests/${id}`, { token });
});
