import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import { after, before, describe, test } from 'node:test';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';
import { createTopic, readUntilDone, uniqueTopic } from '@weir/test-helpers/topics';

/** docs/api.md → Live data: consume start positions, headers, server-sent event tails, metrics summary. */
let t: TestNode;
let admin: string;
let member: string;

before(async () => {
  t = await startTestNode({ 'weir.topics.tail.max-per-user': '1' });
  admin = await t.initAdmin();
  member = await t.createUser(admin, 'watcher');
});
after(() => t.stop());

async function produce(topic: string, messages: unknown[]): Promise<void> {
  const res = await t.call('POST', `/api/topics/${topic}/produce`, { token: admin, body: { messages } });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body, { result: 'success' });
}

describe('consume start positions', () => {
  test('startOffset returns messages from that offset on, each with partition, offset, timestamp and headers', async () => {
    const topic = uniqueTopic('from-offset');
    await createTopic(t, admin, topic);
    await produce(
      topic,
      [0, 1, 2, 3, 4].map((i) => ({ key: `k${i}`, value: `v${i}`, headers: { source: 'test', n: String(i) } })),
    );
    const created = await t.call('POST', `/api/topics/${topic}/consume`, {
      token: member,
      body: { startOffset: 2, maxEvents: 3, maxTimeoutSeconds: 30 },
    });
    assert.equal(created.status, 201, created.text);
    const read = await readUntilDone(t, member, topic);
    assert.equal(read.status, 'COMPLETED');
    assert.deepEqual(
      read.messages.map((m) => [m.key, m.value, m.partition, m.offset]),
      [
        ['k2', 'v2', 0, 2],
        ['k3', 'v3', 0, 3],
        ['k4', 'v4', 0, 4],
      ],
    );
    for (const m of read.messages as unknown as {
      timestamp: number;
      headers: Record<string, string>;
      offset: number;
    }[]) {
      assert.ok(m.timestamp > Date.now() - 120_000 && m.timestamp <= Date.now(), `timestamp ${m.timestamp}`);
      assert.deepEqual(m.headers, { source: 'test', n: String(m.offset) });
    }
    // The headers reached Kafka: read them with a client that is not ours.
    const seen = execFileSync(
      'kcat',
      ['-C', '-b', testBootstrap(), '-t', topic, '-o', '2', '-c', '1', '-e', '-f', '%h|%s\n'],
      { encoding: 'utf8' },
    );
    assert.match(seen, /source=test,n=2\|v2/);
  });

  test('startTimestamp starts at the first message at or after the time; partition limits to one partition', async () => {
    const topic = uniqueTopic('from-time');
    await createTopic(t, admin, topic, 2);
    await produce(topic, [{ key: 'a', value: 'early' }]);
    await new Promise((r) => setTimeout(r, 50));
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 50));
    await produce(
      topic,
      ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => ({ key, value: `late-${key}` })),
    );
    let res = await t.call('POST', `/api/topics/${topic}/consume`, {
      token: member,
      body: { startTimestamp: from, maxEvents: 6, maxTimeoutSeconds: 5 },
    });
    assert.equal(res.status, 201, res.text);
    const all = await readUntilDone(t, member, topic);
    assert.deepEqual(all.messages.map((m) => m.value).sort(), [
      'late-a',
      'late-b',
      'late-c',
      'late-d',
      'late-e',
      'late-f',
    ]);
    const onOne = all.messages
      .filter((m) => m.partition === 1)
      .map((m) => m.value)
      .sort();
    res = await t.call('POST', `/api/topics/${topic}/consume`, {
      token: member,
      body: { startTimestamp: from, partition: 1, maxEvents: 6, maxTimeoutSeconds: 3 },
    });
    assert.equal(res.status, 201, res.text);
    const one = await readUntilDone(t, member, topic);
    assert.ok(one.messages.every((m) => m.partition === 1));
    assert.deepEqual(one.messages.map((m) => m.value).sort(), onOne);
  });

  test('a partition the topic lacks, or two start fields, get 400 saying what is wrong', async () => {
    const topic = uniqueTopic('bad-start');
    await createTopic(t, admin, topic);
    let res = await t.call('POST', `/api/topics/${topic}/consume`, { token: member, body: { partition: 3 } });
    assert.equal(res.status, 400, res.text);
    assert.match(
      (res.body as { debugMessage: string }).debugMessage,
      /partition 3 does not exist: topic .* has 1 partition/,
    );
    res = await t.call('POST', `/api/topics/${topic}/consume`, {
      token: member,
      body: { offset: 'earliest', startOffset: 4 },
    });
    assert.equal(res.status, 400, res.text);
    assert.match(
      (res.body as { debugMessage: string }).debugMessage,
      /at most one of offset, startOffset and startTimestamp \(found offset, startOffset\)/,
    );
  });
});

interface SseEvent {
  event: string;
  data: unknown;
}

/** An SSE stream read with node's https: the events so far, and a way to close it. */
function openTail(
  path: string,
  token: string,
): Promise<{
  status: number;
  body: string;
  events: SseEvent[];
  next(event: string): Promise<SseEvent>;
  close(): void;
}> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = https.get(url, { headers: { authorization: `Bearer ${token}` }, rejectUnauthorized: false }, (res) => {
      const events: SseEvent[] = [];
      const waiters: { event: string; resolve: (e: SseEvent) => void }[] = [];
      let buffer = '';
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event) continue;
          const e = { event, data: data === undefined ? undefined : JSON.parse(data) };
          events.push(e);
          for (const w of waiters.filter((w) => w.event === event)) w.resolve(e);
        }
      });
      const result = {
        status: res.statusCode ?? 0,
        get body() {
          return body;
        },
        events,
        next: (event: string) =>
          new Promise<SseEvent>((r) => {
            const seen = events.find((e) => e.event === event && !(e as { taken?: boolean }).taken);
            if (seen) {
              (seen as { taken?: boolean }).taken = true;
              r(seen);
            } else waiters.push({ event, resolve: r });
          }),
        close: () => req.destroy(),
      };
      if (res.statusCode !== 200) res.on('end', () => resolve(result));
      else resolve(result);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

describe('live tail over server-sent events', () => {
  test('a tail receives what is produced after it opened; a second tail over the per-user limit gets 400', async () => {
    const topic = uniqueTopic('tail');
    await createTopic(t, admin, topic);
    await produce(topic, [{ key: 'old', value: 'before' }]);
    const tail = await openTail(`/api/topics/${topic}/tail`, member);
    assert.equal(tail.status, 200);
    await tail.next('open');
    const refused = await openTail(`/api/alerts/tail`, member);
    assert.equal(refused.status, 400);
    assert.match(refused.body, /already have 1 open \(setting weir\.topics\.tail\.max-per-user\)/);
    await produce(topic, [{ key: 'k', value: 'after', headers: { h: '1' } }]);
    const m = await tail.next('message');
    assert.deepEqual(m.data, {
      key: 'k',
      value: 'after',
      partition: 0,
      offset: 1,
      timestamp: (m.data as { timestamp: number }).timestamp,
      headers: { h: '1' },
    });
    assert.ok(!tail.events.some((e) => (e.data as { value?: string })?.value === 'before'));
    tail.close();
    // Closing frees the slot: the alerts tail opens now (the node may need a moment to see the close).
    let again;
    for (let i = 0; i < 100; i++) {
      again = await openTail(`/api/alerts/tail?maxSeconds=1`, member);
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(again!.status, 200);
    const end = await again!.next('end');
    assert.deepEqual(end.data, { reason: 'maxSeconds reached' });
  });

  test('a tail of a missing topic is 404; a bad query parameter is 400', async () => {
    const missing = await openTail('/api/topics/no-such-topic-xyz/tail', member);
    assert.equal(missing.status, 404);
    const bad = await openTail('/api/alerts/tail?startOffset=abc', member);
    assert.equal(bad.status, 400);
    assert.match(bad.body, /querystring\.startOffset must be an integer >= 0, found 'abc'/);
  });

  test('a tail of a partition the topic lacks is 400 saying so, and leaves no tail open', async () => {
    const topic = uniqueTopic('tail-partition');
    await createTopic(t, admin, topic);
    const lacking = await openTail(`/api/topics/${topic}/tail?partition=3`, member);
    assert.equal(lacking.status, 400, lacking.body);
    assert.match(lacking.body, /partition 3 does not exist: topic .* has 1 partition\(s\) \(0 to 0\)/);
    const next = await openTail(`/api/alerts/tail?maxSeconds=1`, member);
    assert.equal(next.status, 200, 'the failed tail took no slot of the one allowed');
    assert.deepEqual((await next.next('end')).data, { reason: 'maxSeconds reached' });
  });
});

describe('metrics summary', () => {
  test("GET /api/metrics/summary answers this node's counters as JSON to any user, 401 without a token", async () => {
    const res = await t.call('GET', '/api/metrics/summary', { token: member });
    assert.equal(res.status, 200, res.text);
    const body = res.body as Record<string, unknown>;
    assert.equal(body.node, t.node.context.uuid);
    for (const k of ['workers', 'recordsIn', 'recordsOut', 'deadLettered', 'alerts', 'ruleMatches', 'lag'])
      assert.ok(Array.isArray(body[k]), k);
    assert.equal((await t.call('GET', '/api/metrics/summary')).status, 401);
  });
});
