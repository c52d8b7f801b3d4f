import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { startTestNode, useTestNode } from '@weir/test-helpers/test-node';
import { createTopic, deserializer, readUntilDone, serializer, uniqueTopic } from '@weir/test-helpers/topics';

/** Produce and consume sessions on the real broker (spec: Endpoints → Topics, States → Consumer). */
let admin: string;
let member: string;

const t = useTestNode({}, async () => {
  admin = await t.initAdmin();
  member = await t.createUser(admin, 'viewer');
});

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** [type, values produced (keys use the same list), values read back]. */
const roundTrips: [string, unknown[], unknown[]][] = [
  ['String', ['hello', 'ünïcode ✓', ''], ['hello', 'ünïcode ✓', '']],
  ['Integer', [0, -1, 2147483647, -2147483648], [0, -1, 2147483647, -2147483648]],
  [
    'Long',
    [0, -1, 9007199254740991, '9223372036854775807', '-9223372036854775808'],
    [0, -1, 9007199254740991, '9223372036854775807', '-9223372036854775808'],
  ],
  ['Float', [1.1, -0.5, 3.4028234663852886e38, 0], [1.1, -0.5, 3.4028235e38, 0]],
  ['Double', [1.1, -2.5e-300, 1.7976931348623157e308], [1.1, -2.5e-300, 1.7976931348623157e308]],
  [
    'UUID',
    ['123E4567-E89B-12D3-A456-426614174000', '00000000-0000-0000-0000-000000000000'],
    ['123e4567-e89b-12d3-a456-426614174000', '00000000-0000-0000-0000-000000000000'],
  ],
  ['ByteArray', [b64('00ff10'), ''], [b64('00ff10'), '']],
  ['Bytes', [b64('cafebabe')], [b64('cafebabe')]],
  ['ByteBuffer', [randomBytes(32).toString('base64')], []],
];

for (const [type, produced, expected] of roundTrips) {
  test(`round trip through ${type}Serializer and ${type}Deserializer (keys and values)`, async () => {
    const topic = uniqueTopic(type.toLowerCase());
    await createTopic(t, admin, topic);
    const res = await t.call('POST', `/api/topics/${topic}/produce`, {
      token: admin,
      body: {
        keySerializer: serializer(type),
        valueSerializer: serializer(type),
        messages: produced.map((v) => ({ key: v, value: v })),
      },
    });
    assert.deepEqual([res.status, res.body, res.headers.location], [201, { result: 'success' }, '/api/topics']);
    const created = await t.call('POST', `/api/topics/${topic}/consume`, {
      token: member,
      body: {
        keyDeserializer: deserializer(type),
        valueDeserializer: deserializer(type),
        maxEvents: produced.length,
        maxTimeoutSeconds: 30,
        offset: 'earliest',
      },
    });
    assert.deepEqual(
      [created.status, created.body, created.headers.location],
      [201, { status: 'CREATED' }, `/api/topics/${topic}/consume`],
    );
    const read = await readUntilDone(t, member, topic);
    const wanted = expected.length > 0 ? expected : produced;
    assert.equal(read.status, 'COMPLETED');
    assert.deepEqual(
      read.messages.map(({ key, value, partition, offset }) => ({ key, value, partition, offset })),
      wanted.map((v, i) => ({ key: v, value: v, partition: 0, offset: i })),
    );
    for (const m of read.messages)
      assert.ok(Math.abs(m.timestamp - Date.now()) < 60_000, 'timestamp is epoch milliseconds');
  });
}

test('Java byte layouts: numbers are big-endian, UUIDs their text, read back raw as base64', async () => {
  const topic = uniqueTopic('layout');
  await createTopic(t, admin, topic);
  const cases: [string, unknown, string][] = [
    ['Integer', 1, '00000001'],
    ['Integer', -2, 'fffffffe'],
    ['Long', 258, '0000000000000102'],
    ['Float', 1, '3f800000'],
    ['Double', -2, 'c000000000000000'],
    [
      'UUID',
      '123e4567-e89b-12d3-a456-426614174000',
      Buffer.from('123e4567-e89b-12d3-a456-426614174000').toString('hex'),
    ],
    ['String', 'é', 'c3a9'],
  ];
  for (const [type, value] of cases) {
    const res = await t.call('POST', `/api/topics/${topic}/produce`, {
      token: admin,
      body: { valueSerializer: serializer(type), messages: [{ value }] },
    });
    assert.deepEqual(res.body, { result: 'success' });
  }
  await t.call('POST', `/api/topics/${topic}/consume`, {
    token: admin,
    body: { valueDeserializer: deserializer('ByteArray'), maxEvents: cases.length },
  });
  const read = await readUntilDone(t, admin, topic);
  assert.deepEqual(
    read.messages.map((m) => m.value),
    cases.map(([, , hex]) => b64(hex)),
  );
});

test('keys are optional; a null value is a tombstone; default serdes are String', async () => {
  const topic = uniqueTopic('nulls');
  await createTopic(t, admin, topic);
  const res = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'no key' }, { key: 'k', value: null }, { key: 'j', value: { a: 1 } }] },
  });
  assert.deepEqual([res.status, res.body], [201, { result: 'success' }]);
  await t.call('POST', `/api/topics/${topic}/consume`, { token: admin, body: { maxEvents: 3 } });
  const read = await readUntilDone(t, admin, topic);
  assert.deepEqual(
    read.messages.map(({ key, value }) => ({ key, value })),
    [
      { key: null, value: 'no key' },
      { key: 'k', value: null },
      { key: 'j', value: '{"a":1}' },
    ],
  );
});

test('values that do not fit the serializer → 400 naming each message index', async () => {
  const topic = uniqueTopic('unfit');
  await createTopic(t, admin, topic);
  const res = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: {
      keySerializer: serializer('UUID'),
      valueSerializer: serializer('Integer'),
      messages: [{ value: 1 }, { value: 'abc' }, { key: 'not-a-uuid', value: 2147483648 }, { value: 1.5 }],
    },
  });
  const errors = [
    'messages[1].value: "abc" does not fit IntegerSerializer; accepted: a JSON integer from -2147483648 to 2147483647',
    'messages[2].key: "not-a-uuid" does not fit UUIDSerializer; accepted: a UUID string such as 123e4567-e89b-12d3-a456-426614174000',
    'messages[2].value: 2147483648 does not fit IntegerSerializer; accepted: a JSON integer from -2147483648 to 2147483647',
    'messages[3].value: 1.5 does not fit IntegerSerializer; accepted: a JSON integer from -2147483648 to 2147483647',
  ];
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: `Unable to produce the messages, error(s) in serializing -- [${errors.join(', ')}]`,
    errors,
  });
  for (const [type, value] of [
    ['Long', 1.5],
    ['Float', 1e39],
    ['Double', 'x'],
    ['ByteArray', 'not base64!'],
    ['Bytes', 12],
  ] as const) {
    const bad = await t.call('POST', `/api/topics/${topic}/produce`, {
      token: admin,
      body: { valueSerializer: serializer(type), messages: [{ value }] },
    });
    assert.equal(bad.status, 400, `${type} ${value}`);
    assert.match(
      (bad.body as { debugMessage: string }).debugMessage,
      new RegExp(`messages\\[0\\]\\.value: .* does not fit ${type}Serializer`),
    );
  }
  await t.call('POST', `/api/topics/${topic}/consume`, { token: admin, body: { maxEvents: 10, maxTimeoutSeconds: 1 } });
  assert.deepEqual(await readUntilDone(t, admin, topic), { status: 'COMPLETED', messages: [] }, 'nothing was written');
});

test('produce request schema: unknown serializer class, message without value', async () => {
  const topic = uniqueTopic('schema');
  await createTopic(t, admin, topic);
  const unknown = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { valueSerializer: 'com.example.Nope', messages: [] },
  });
  assert.equal(unknown.status, 400);
  assert.match(
    (unknown.body as { debugMessage: string }).debugMessage,
    /^body\.valueSerializer must be equal to one of the allowed values: org\.apache\.kafka\.common\.serialization\.FloatSerializer, /,
  );
  const noValue = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'a' }, { key: 'b' }] },
  });
  assert.deepEqual(
    [noValue.status, (noValue.body as { debugMessage: string }).debugMessage],
    [400, "body.messages.1 must have required property 'value'"],
  );
});

test('produce and consume on a missing topic → 404 with the spec text', async () => {
  const missing = {
    status: 'NOT_FOUND',
    message: 'Resource not found',
    debugMessage: 'Kafka topic does not exist, can not write a message.',
  };
  const topic = uniqueTopic('missing');
  const produce = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'x' }] },
  });
  assert.deepEqual([produce.status, produce.body], [404, missing]);
  const consume = await t.call('POST', `/api/topics/${topic}/consume`, { token: member, body: {} });
  assert.deepEqual([consume.status, consume.body], [404, missing]);
  const read = await t.call('GET', `/api/topics/${topic}/consume`, { token: member });
  assert.deepEqual(
    [read.status, read.body],
    [
      404,
      {
        status: 'NOT_FOUND',
        message: 'Resource not found',
        debugMessage: `No consumer session of yours for topic ${topic}; create one with POST /api/topics/${topic}/consume (sessions expire when not read for a while).`,
      },
    ],
  );
});

test('a broker refusal on produce → 201 with result failure and the broker message', async () => {
  const topic = uniqueTopic('refuse');
  await createTopic(t, admin, topic, 1, { 'max.message.bytes': '200' });
  const res = await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: [{ value: 'x'.repeat(1000) }] },
  });
  assert.equal(res.status, 201);
  const body = res.body as { result: string; message: string };
  assert.equal(body.result, 'failure');
  assert.match(body.message, /larger than|too large/i);
});

test('session: RUNNING while open, index reads from message n on, COMPLETED after maxEvents', async () => {
  const topic = uniqueTopic('session');
  await createTopic(t, admin, topic, 3);
  const created = await t.call('POST', `/api/topics/${topic}/consume`, {
    token: member,
    body: { maxEvents: 4, maxTimeoutSeconds: 60, offset: 'latest' },
  });
  assert.deepEqual(created.body, { status: 'CREATED' });
  const empty = await t.call('GET', `/api/topics/${topic}/consume`, { token: member });
  assert.deepEqual([empty.status, empty.body], [200, { status: 'RUNNING', messages: [] }]);
  await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: {
      messages: [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
    },
  });
  let read = await t.call('GET', `/api/topics/${topic}/consume`, { token: member });
  for (let i = 0; i < 100 && (read.body as { messages: unknown[] }).messages.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    read = await t.call('GET', `/api/topics/${topic}/consume`, { token: member });
  }
  const running = read.body as { status: string; messages: { key: string; value: string; partition: number }[] };
  assert.equal(running.status, 'RUNNING');
  assert.deepEqual(
    running.messages.map((m) => [m.key, m.value]),
    [
      ['a', '1'],
      ['a', '2'],
    ],
  );
  assert.equal(running.messages[0]!.partition, running.messages[1]!.partition, 'one key, one partition');
  const fromOne = await t.call('GET', `/api/topics/${topic}/consume?index=1`, { token: member });
  assert.deepEqual(
    (fromOne.body as { messages: { value: string }[] }).messages.map((m) => m.value),
    ['2'],
  );
  const beyond = await t.call('GET', `/api/topics/${topic}/consume?index=9`, { token: member });
  assert.deepEqual(beyond.body, { status: 'RUNNING', messages: [] });
  const badIndex = await t.call('GET', `/api/topics/${topic}/consume?index=-1`, { token: member });
  assert.deepEqual(
    [badIndex.status, (badIndex.body as { debugMessage: string }).debugMessage],
    [400, "querystring.index must be an integer >= 0 (the first message to return), found '-1'"],
  );

  await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { messages: ['3', '4', '5'].map((value) => ({ value })) },
  });
  const done = await readUntilDone(t, member, topic);
  assert.equal(done.status, 'COMPLETED');
  assert.equal(done.messages.length, 4, 'stops at maxEvents');
});

test('session: the timeout closes it with COMPLETED; a second POST replaces it; sessions are per user', async () => {
  const topic = uniqueTopic('timeout');
  await createTopic(t, admin, topic);
  await t.call('POST', `/api/topics/${topic}/produce`, { token: admin, body: { messages: [{ value: 'only' }] } });
  await t.call('POST', `/api/topics/${topic}/consume`, {
    token: member,
    body: { maxEvents: 100, maxTimeoutSeconds: 1 },
  });
  const started = Date.now();
  const done = await readUntilDone(t, member, topic);
  assert.equal(done.status, 'COMPLETED');
  assert.deepEqual(
    done.messages.map((m) => m.value),
    ['only'],
  );
  assert.ok(Date.now() - started < 5000);

  const other = await t.call('GET', `/api/topics/${topic}/consume`, { token: admin });
  assert.equal(other.status, 404, "another user does not see this user's session");
  await t.call('POST', `/api/topics/${topic}/consume`, {
    token: member,
    body: { maxEvents: 100, maxTimeoutSeconds: 30, offset: 'latest' },
  });
  const replaced = await t.call('GET', `/api/topics/${topic}/consume`, { token: member });
  assert.deepEqual(replaced.body, { status: 'RUNNING', messages: [] });
});

test('session: data the deserializer cannot read ends it with the error text', async () => {
  const topic = uniqueTopic('baddata');
  await createTopic(t, admin, topic);
  await t.call('POST', `/api/topics/${topic}/produce`, {
    token: admin,
    body: { valueSerializer: serializer('Integer'), messages: [{ value: 7 }, { value: 8 }] },
  });
  await t.call('POST', `/api/topics/${topic}/produce`, { token: admin, body: { messages: [{ value: 'abc' }] } });
  await t.call('POST', `/api/topics/${topic}/consume`, {
    token: admin,
    body: { valueDeserializer: deserializer('Integer'), maxEvents: 10 },
  });
  const read = await readUntilDone(t, admin, topic);
  assert.equal(read.status, 'Size of data received by IntegerDeserializer is not 4 (it is 3) (partition 0, offset 2)');
  assert.deepEqual(
    read.messages.map((m) => m.value),
    [7, 8],
  );
});

test('consumer create validation: maxima, unknown fields and deserializers → 400', async () => {
  const topic = uniqueTopic('limits');
  await createTopic(t, admin, topic);
  const cases: [unknown, string][] = [
    [{ maxEvents: 100_001 }, 'body.maxEvents must be <= 100000'],
    [{ maxEvents: 0 }, 'body.maxEvents must be >= 1'],
    [{ maxTimeoutSeconds: 3601 }, 'body.maxTimeoutSeconds must be <= 3600'],
    [{ maxEvents: '10' }, 'body.maxEvents must be integer'],
    [{ offset: 'middle' }, 'body.offset must be equal to one of the allowed values: earliest, latest'],
    [{ max: 1 }, "body must NOT have additional properties 'max'"],
  ];
  for (const [body, debugMessage] of cases) {
    const res = await t.call('POST', `/api/topics/${topic}/consume`, { token: member, body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal((res.body as { debugMessage: string }).debugMessage, debugMessage);
  }
});

test('session limits: sessions per user, and idle sessions expire', async () => {
  const node = await startTestNode({
    'weir.topics.consume.max-sessions-per-user': '2',
    'weir.topics.consume.idle-seconds': '1',
  });
  try {
    const token = await node.initAdmin();
    const topics = [uniqueTopic('cap'), uniqueTopic('cap'), uniqueTopic('cap')];
    for (const topic of topics) await createTopic(node, token, topic);
    for (const topic of topics.slice(0, 2)) {
      assert.equal(
        (await node.call('POST', `/api/topics/${topic}/consume`, { token, body: { maxTimeoutSeconds: 60 } })).status,
        201,
      );
    }
    const third = await node.call('POST', `/api/topics/${topics[2]}/consume`, { token, body: {} });
    assert.deepEqual(
      [third.status, third.body],
      [
        400,
        {
          status: 'BAD_REQUEST',
          message: 'Resource validation failed',
          debugMessage:
            'Unable to create a consumer: you already have 2 running consumer sessions (setting weir.topics.consume.max-sessions-per-user); wait until one completes or expires.',
        },
      ],
    );
    // Replacing one's own session of a topic does not count twice.
    assert.equal(
      (await node.call('POST', `/api/topics/${topics[0]}/consume`, { token, body: { maxTimeoutSeconds: 60 } })).status,
      201,
    );
    assert.equal(node.node.context.topics.consumers.size, 2);

    // Not read for 1 s: the sessions are closed and forgotten, which frees the user's slots.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const expired = await node.call('GET', `/api/topics/${topics[0]}/consume`, { token });
    assert.equal(expired.status, 404);
    assert.equal(node.node.context.topics.consumers.size, 0);
    assert.equal(
      (await node.call('POST', `/api/topics/${topics[2]}/consume`, { token, body: { maxTimeoutSeconds: 60 } })).status,
      201,
    );
    // Reading keeps a session alive.
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await node.call('GET', `/api/topics/${topics[2]}/consume`, { token })).status, 200);
    }
  } finally {
    await node.stop();
  }
});
