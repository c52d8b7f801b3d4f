import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestNode, type TestNode } from '../helpers/test-node.ts';
import { createTopic, readUntilDone, uniqueTopic } from '../helpers/topics.ts';

/**
 * Issue #4: producing 10,000 messages in one request and reading them back through a consumer
 * session takes seconds. The figures are printed as test diagnostics and recorded in bench/RESULTS.md.
 */
let t: TestNode;
let admin: string;

before(async () => {
  t = await startTestNode();
  admin = await t.initAdmin();
});
after(() => t.stop());

test('10,000 messages: one produce request, read back through one session', async (context) => {
  const count = 10_000;
  const topic = uniqueTopic('throughput');
  await createTopic(t, admin, topic, 3);
  const messages = Array.from({ length: count }, (_, i) => ({
    key: `host-${i % 97}`,
    value: JSON.stringify({ seq: i, host: `host-${i % 97}`, user: `user${i % 13}`, action: 'login', outcome: i % 7 === 0 ? 'failure' : 'success' }),
  }));

  const produceStart = performance.now();
  const produced = await t.call('POST', `/api/topics/${topic}/produce`, { token: admin, body: { messages } });
  const produceMs = performance.now() - produceStart;
  assert.deepEqual([produced.status, produced.body], [201, { result: 'success' }]);

  const consumeStart = performance.now();
  const created = await t.call('POST', `/api/topics/${topic}/consume`, { token: admin, body: { maxEvents: count, maxTimeoutSeconds: 120, offset: 'earliest' } });
  assert.equal(created.status, 201);
  const read = await readUntilDone(t, admin, topic, 120_000);
  const consumeMs = performance.now() - consumeStart;
  assert.equal(read.status, 'COMPLETED');
  assert.equal(read.messages.length, count);
  const seqs = new Set(read.messages.map((m) => (JSON.parse(m.value as string) as { seq: number }).seq));
  assert.equal(seqs.size, count, 'every message read back once');

  context.diagnostic(`produce ${count} messages in one request: ${produceMs.toFixed(0)} ms`);
  context.diagnostic(`consume ${count} messages through a session: ${consumeMs.toFixed(0)} ms`);
  assert.ok(produceMs + consumeMs < 30_000, `took ${(produceMs + consumeMs).toFixed(0)} ms`);
});
