import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestNode } from '../helpers/test-node.ts';
import { createTopic, readUntilDone, uniqueTopic } from '../helpers/topics.ts';

/**
 * Consumer-create requests of one user on one topic that overlap (issue 13: the fuzz suite's two
 * 503s). Each POST replaces the user's session of the topic; a session replaced while its consumer
 * still joins the broker was answered 503 "The Kafka cluster is not reachable" although the broker
 * was fine. The spec answers a consumer create with 201 (or 404 for a missing topic): every one of
 * them must get 201, and the last one's session must run and read.
 */
let admin: string;

const t = useTestNode({}, async () => {
  admin = await t.initAdmin();
});

test('overlapping consumer creates of one user and topic: every one 201, the last session reads', async () => {
  const topic = uniqueTopic('overlap');
  await createTopic(t, admin, topic);
  await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'a' }, { value: 'b' }] },
  });
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.call('POST', `/api/topics/${topic}/consume`, {
          token: admin,
          body: { maxEvents: 2, maxTimeoutSeconds: 30, offset: i % 2 === 0 ? 'earliest' : 'latest' },
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => (a.status === 201 ? 201 : `${a.status} ${a.text}`)),
      answers.map(() => 201),
      `round ${round}: every overlapping POST is answered 201`,
    );
  }
  // After the overlap, a POST of its own: its session starts and reads what the topic holds.
  const last = await t.call('POST', `/api/topics/${topic}/consume`, {
    token: admin,
    body: { maxEvents: 2, maxTimeoutSeconds: 30, offset: 'earliest' },
  });
  assert.equal(last.status, 201, last.text);
  const done = await readUntilDone(t, admin, topic);
  assert.deepEqual([done.status, done.messages.map((m) => m.value)], ['COMPLETED', ['a', 'b']]);
});

test('a session whose maxTimeoutSeconds ends while its consumer still joins: 201, then COMPLETED', async () => {
  const topic = uniqueTopic('short');
  await createTopic(t, admin, topic);
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      t.call('POST', `/api/topics/${topic}/consume`, {
        token: admin,
        body: { maxEvents: 10, maxTimeoutSeconds: 1, offset: i % 2 === 0 ? 'earliest' : 'latest' },
      }),
    ),
  );
  assert.deepEqual(
    answers.map((a) => (a.status === 201 ? 201 : `${a.status} ${a.text}`)),
    answers.map(() => 201),
  );
  const done = await readUntilDone(t, admin, topic);
  assert.equal(done.status, 'COMPLETED');
});

test('consumer creates of one user and topic, each arriving while the one before still starts: all 201, the node stays up', async () => {
  const topic = uniqueTopic('staggered');
  await createTopic(t, admin, topic);
  // Spaced so that the replacing POSTs land at every step of the previous session's start (offsets,
  // group join, stream creation); a close at the last step used to end the node's process.
  const answers = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 25));
      return t.call('POST', `/api/topics/${topic}/consume`, {
        token: admin,
        body: { maxEvents: 1, maxTimeoutSeconds: 30, offset: i % 2 === 0 ? 'earliest' : 'latest' },
      });
    }),
  );
  assert.deepEqual(
    answers.map((a) => (a.status === 201 ? 201 : `${a.status} ${a.text}`)),
    answers.map(() => 201),
  );
  const read = await t.call('GET', `/api/topics/${topic}/consume`, { token: admin });
  assert.equal(read.status, 200, read.text);
});
