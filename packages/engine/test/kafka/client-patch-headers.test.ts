import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { consume, createTopics, type RawMessage } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/**
 * Weir's patch of the client (patches/README.md): a record without headers allocates no headers Map
 * when produced or consumed. What a user observes must not change: the records on the topic (none, a
 * Map's, an object's, an empty Map's headers), the serializers' headers argument, the consumed messages' headers.
 */
const headerText = (m: RawMessage) => m.headerEntries.map(([k, v]) => [k.toString(), v.toString()]);

test('records without headers, with headers and with an empty Map of headers read back as written', async () => {
  const topic = uniqueTopic('patch-headers');
  await createTopics([topic]);
  const producer = new Producer({
    clientId: 'weir-patch-headers',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
  });
  try {
    await producer.send({
      acks: ProduceAcks.ALL,
      messages: [
        { topic, key: Buffer.from('none'), value: Buffer.from('a') },
        {
          topic,
          key: Buffer.from('map'),
          value: Buffer.from('b'),
          headers: new Map([[Buffer.from('h1'), Buffer.from('v1')]]),
        },
        { topic, key: Buffer.from('none-again'), value: Buffer.from('c') },
        { topic, key: Buffer.from('empty-map'), value: Buffer.from('e'), headers: new Map() },
      ] as never,
    });
  } finally {
    await producer.close();
  }
  const read = await consume(topic, 4);
  assert.deepEqual(
    read.map((m) => [m.key.toString(), m.value.toString(), headerText(m), m.headers.size]),
    [
      ['none', 'a', [], 0],
      ['map', 'b', [['h1', 'v1']], 1],
      ['none-again', 'c', [], 0],
      ['empty-map', 'e', [], 0],
    ],
  );
  assert.equal(read[1]!.headers.get(read[1]!.headerEntries[0]![0])?.toString(), 'v1');
  // the messages without headers share one empty Map, which cannot be written to
  const none = read[0]!;
  assert.ok(none.headers instanceof Map);
  assert.throws(() => none.headers.set(Buffer.from('x'), Buffer.from('y')), {
    name: 'TypeError',
    message: 'the headers of a message consumed without headers are read-only',
  });
  assert.equal(none.headers.size, 0);
  assert.equal(read[2]!.headers.size, 0);
  assert.deepEqual(JSON.parse(JSON.stringify(none)).headers, []);
});

test('a custom serializer still gets a fresh, writable headers Map for each message without headers', async () => {
  const topic = uniqueTopic('patch-headers-serde');
  await createTopics([topic]);
  const seen: Map<unknown, unknown>[] = [];
  const producer = new Producer<string, string, string, string>({
    clientId: 'weir-patch-headers-serde',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
    serializers: {
      key: (k) => (k === undefined ? undefined : Buffer.from(k)),
      value: (v, headers) => {
        seen.push(headers as Map<unknown, unknown>);
        headers?.set('written by the serializer', 'x');
        return v === undefined ? undefined : Buffer.from(v.toUpperCase());
      },
      headerKey: (k) => (k === undefined ? undefined : Buffer.from(k)),
      headerValue: (v) => (v === undefined ? undefined : Buffer.from(v)),
    },
  });
  try {
    await producer.send({
      acks: ProduceAcks.ALL,
      messages: [
        { topic, key: 'k1', value: 'one' },
        { topic, key: 'k2', value: 'two' },
        { topic, key: 'k3', value: 'three', headers: { h2: 'v2', h3: '' } },
      ],
    });
  } finally {
    await producer.close();
  }
  assert.equal(seen.length, 3);
  assert.ok(seen[0] instanceof Map && seen[1] instanceof Map);
  assert.notEqual(seen[0], seen[1]);
  // as without the patch: headers a serializer adds are not written (the client serializes them before the value)
  const read = await consume(topic, 3);
  assert.deepEqual(
    read.map((m) => [m.key.toString(), m.value.toString(), headerText(m)]),
    [
      ['k1', 'ONE', []],
      ['k2', 'TWO', []],
      [
        'k3',
        'THREE',
        [
          ['h2', 'v2'],
          ['h3', ''],
        ],
      ],
    ],
  );
});
