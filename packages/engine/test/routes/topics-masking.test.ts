import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useInProcessNode } from '../helpers/in-process-node.ts';

/** `weir.topics.masked-fields`: what consume reads and live tails answer, for every role. */
const t = useInProcessNode({ 'weir.topics.masked-fields': 'password, card.number' });

test('consume and tail answer the listed fields masked, for users and admins alike', async () => {
  const { admin, user } = t.tokens;
  await t.node.call('POST', '/api/topics', {
    token: admin,
    body: { name: 'logins', numberOfPartitions: 1, replicationFactor: 1 },
  });
  const produced = await t.node.call('POST', '/api/topics/logins/produce', {
    token: admin,
    body: {
      messages: [
        {
          key: 'k',
          value: '{"user": "ada", "password": "s3cret", "card": {"number": "4111", "cvc": "1"}, "number": 7}',
          headers: { Password: 'h1', source: 'web' },
        },
        { value: 'password=plain text is not JSON' },
      ],
    },
  });
  assert.equal(produced.status, 201);
  const masked = {
    key: 'k',
    value: '{"user":"ada","password":"***","card":{"number":"***","cvc":"1"},"number":7}',
    partition: 0,
    offset: 0,
    timestamp: 0,
    headers: { Password: '***', source: 'web' },
  };
  const plain = { key: null, value: 'password=plain text is not JSON', partition: 0, offset: 1, timestamp: 0 };
  for (const token of [user, admin]) {
    await t.node.call('POST', '/api/topics/logins/consume', { token, body: { untilEnd: true } });
    const read = await t.node.call('GET', '/api/topics/logins/consume', { token });
    const body = read.body as { status: string; messages: { timestamp: number }[] };
    assert.deepEqual(
      [read.status, body.status, body.messages.map((m) => ({ ...m, timestamp: 0 }))],
      [200, 'COMPLETED', [masked, plain]],
    );
  }
  const tail = await t.node.call('GET', '/api/topics/logins/tail?offset=earliest&maxSeconds=1', { token: user });
  const events = tail.text.replace(/"timestamp":\d+/g, '"timestamp":0');
  assert.ok(events.includes(`event: message\ndata: ${JSON.stringify(masked)}\n\n`), events);
  assert.ok(!events.includes('s3cret') && !events.includes('4111') && !events.includes('h1'), events);
});
