import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestNode } from '@weir/test-helpers/test-node';
import { createTopic, readUntilDone, uniqueTopic } from '@weir/test-helpers/topics';

/**
 * Consumer-create requests of one user on one topic that overlap (issue 13: the fuzz suite's two
 * 503s). Each POST replaces the user's session of the topic. A session replaced (or timed out)
 * while its consumer still joined the broker was closed mid-start: its POST was answered 503 "The
 * Kafka cluster is not reachable" although the broker was fine, the closed consumer kept
 * heartbeating (the node could not stop), and a close as its stream was created ended the node's
 * process. The spec answers a consumer create with 201 (404 for a missing topic): every one of them
 * must get 201, the last session must read, and the node must stop (the file ends).
 */
let admin: string;

const t = useTestNode({}, async () => {
  admin = await t.initAdmin();
});

/** `count` consumer creates on the topic, the i-th sent after i × spacingMs; asserts that each is answered 201. */
async function createConsumers(
  topic: string,
  count: number,
  body: { maxEvents: number; maxTimeoutSeconds: number },
  spacingMs = 0,
): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      if (spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, i * spacingMs));
      return t.call('POST', `/api/topics/${topic}/consume`, {
        token: admin,
        body: { ...body, offset: i % 2 === 0 ? 'earliest' : 'latest' },
      });
    }),
  );
  assert.deepEqual(
    answers.map((a) => (a.status === 201 ? 201 : `${a.status} ${a.text}`)),
    answers.map(() => 201),
    'every overlapping POST is answered 201',
  );
}

test('overlapping consumer creates of one user and topic: every one 201, the last session reads', async () => {
  const topic = uniqueTopic('overlap');
  await createTopic(t, admin, topic);
  await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'a' }, { value: 'b' }] },
  });
  for (let round = 0; round < 3; round++) await createConsumers(topic, 8, { maxEvents: 2, maxTimeoutSeconds: 30 });
  // After the overlap, a POST of its own: its session starts and reads what the topic holds.
  const last = await t.call('POST', `/api/topics/${topic}/consume`, {
    token: admin,
    body: { maxEvents: 2, maxTimeoutSeconds: 30, offset: 'earliest' },
  });
  assert.equal(last.status, 201, last.text);
  const done = await readUntilDone(t, admin, topic);
  assert.deepEqual([done.status, done.messages.map((m) => m.value)], ['COMPLETED', ['a', 'b']]);
});

test('sessions whose maxTimeoutSeconds may end while their consumer still joins: 201, then COMPLETED', async () => {
  const topic = uniqueTopic('short');
  await createTopic(t, admin, topic);
  await createConsumers(topic, 6, { maxEvents: 10, maxTimeoutSeconds: 1 });
  const done = await readUntilDone(t, admin, topic);
  assert.equal(done.status, 'COMPLETED');
});

test('consumer creates each arriving while the one before still starts: all 201, the session reads', async () => {
  const topic = uniqueTopic('staggered');
  await createTopic(t, admin, topic);
  // Spaced so that the replacing POSTs land at every step of the previous session's start (offsets,
  // group join, stream creation).
  await createConsumers(topic, 40, { maxEvents: 1, maxTimeoutSeconds: 30 }, 25);
  const read = await t.call('GET', `/api/topics/${topic}/consume`, { token: admin });
  assert.equal(read.status, 200, read.text);
});
