import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConsumeSessions, consumerStatus } from '../../src/kafka/consume-sessions.ts';
import { isDomainError } from '../../src/core/errors.ts';
import { createTopics, produce } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/** ConsumeSessions on the shared test broker, without the HTTP layer: limits, replacement, bytes. */
const sessions = new ConsumeSessions(
  { clientId: 'weir-test-sessions', bootstrapBrokers: [testBootstrap()] },
  'weir-test-sessions',
  { maxSessionsPerUser: 2, idleSeconds: 60, maxBytes: 64 },
);
after(() => sessions.close());

const request = {
  keyType: 'String',
  valueType: 'String',
  maxEvents: 3,
  maxTimeoutSeconds: 30,
  start: { kind: 'earliest' },
} as const;

async function readUntilDone(username: string, topic: string) {
  for (let i = 0; i < 600; i++) {
    const read = sessions.read(username, topic, 0);
    if (read && read.status !== consumerStatus.RUNNING) return read;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session of ${username} on ${topic} still running`);
}

test('consume sessions: maxEvents, the bytes limit, one session per user and topic, sessions per user', async () => {
  const [a, b, c] = [uniqueTopic('sessions-a'), uniqueTopic('sessions-b'), uniqueTopic('sessions-c')];
  await createTopics([a, b, c]);
  await produce(a, ['1', '2', '3', '4', '5']);
  await produce(b, ['x'.repeat(40), 'y'.repeat(40), 'z']);

  await sessions.open('uma', a, request);
  const readA = await readUntilDone('uma', a);
  assert.deepEqual(
    [readA.status, readA.messages.map((m) => m.value)],
    [consumerStatus.COMPLETED, ['1', '2', '3']],
    'stops at maxEvents',
  );
  assert.deepEqual(
    sessions.read('uma', a, 2)?.messages.map((m) => m.value),
    ['3'],
    'read from an index',
  );

  await sessions.open('uma', b, request);
  const readB = await readUntilDone('uma', b);
  assert.equal(readB.status, consumerStatus.COMPLETED);
  assert.ok(readB.messages.length < 3, 'completes once the session holds maxBytes of keys and values');

  // A third topic: a finished session gives way; a new one of the same topic replaces the old one.
  await sessions.open('uma', c, { ...request, start: { kind: 'latest' } } as const);
  assert.equal(sessions.size, 2);
  assert.equal(sessions.read('uma', a, 0), undefined, 'the oldest finished session gave way');
  await sessions.open('uma', c, { ...request, start: { kind: 'latest' } } as const);
  assert.equal(sessions.size, 2, 'replaced, not added');
  await sessions.open('uma', b, { ...request, start: { kind: 'latest' } } as const);
  await assert.rejects(
    sessions.open('uma', a, request),
    (e: unknown) => isDomainError(e) && e.code === 'CONSUMER_LIMIT',
  );
  assert.equal(sessions.read('ida', c, 0), undefined, 'sessions are per user');
});

test('untilEnd: a read completes as soon as it has what the partitions held at its start', async () => {
  const [spread, empty] = [uniqueTopic('until-end'), uniqueTopic('until-end-empty')];
  await createTopics([spread], 4);
  await createTopics([empty]);
  // Round robin over 4 partitions: 0 to 2 get messages, 3 stays empty.
  await produce(spread, ['1', '2', '3']);
  const bounded = { ...request, maxEvents: 1000, untilEnd: true } as const;

  const started = Date.now();
  await sessions.open('ute', spread, bounded);
  const all = await readUntilDone('ute', spread);
  assert.deepEqual([all.status, all.messages.map((m) => m.value).sort()], [consumerStatus.COMPLETED, ['1', '2', '3']]);
  assert.ok(Date.now() - started < 10_000, `completed in ${Date.now() - started} ms, not at the 30 s timeout`);

  // One partition, from an offset at its end, an empty topic, and `latest`: nothing to read, done at once.
  const one = all.messages[0]!;
  await sessions.open('ute', spread, { ...bounded, start: { kind: 'offset', offset: 0, partition: one.partition } });
  const part = await readUntilDone('ute', spread);
  assert.deepEqual([part.status, part.messages.map((m) => m.value)], [consumerStatus.COMPLETED, [one.value]]);
  for (const start of [{ kind: 'earliest' }, { kind: 'latest' }] as const) {
    const t0 = Date.now();
    await sessions.open('ute', empty, { ...bounded, start });
    const none = await readUntilDone('ute', empty);
    assert.deepEqual([start.kind, none.status, none.messages], [start.kind, consumerStatus.COMPLETED, []]);
    assert.ok(Date.now() - t0 < 10_000);
  }

  // Past the end of a topic that has messages: done on the first fetch, by the fetch positions.
  for (const start of [{ kind: 'latest' }, { kind: 'timestamp', timestamp: Date.now() + 3_600_000 }] as const) {
    const t0 = Date.now();
    await sessions.open('ute', spread, { ...bounded, start });
    const none = await readUntilDone('ute', spread);
    assert.deepEqual([start.kind, none.status, none.messages], [start.kind, consumerStatus.COMPLETED, []]);
    assert.ok(Date.now() - t0 < 10_000);
  }

  // Without untilEnd (the spec's consumer) a session keeps waiting for new messages.
  await sessions.open('utf', spread, { ...request, maxEvents: 1000 });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.deepEqual(
    [sessions.read('utf', spread, 0)?.status, sessions.read('utf', spread, 0)?.messages.length],
    [consumerStatus.RUNNING, 3],
  );
  await produce(spread, ['4']);
  for (let i = 0; i < 100 && sessions.read('utf', spread, 0)?.messages.length !== 4; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(sessions.read('utf', spread, 0)?.messages.length, 4);
});
