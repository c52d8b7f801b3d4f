import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();
const invalid = (errors: string[]) => ({
  ...badRequest(`Unable to create Kafka topic, error(s) in validating schema -- [${errors.join(', ')}]`),
  errors,
});
const writeMissing = notFound('Kafka topic does not exist, can not write a message.');
const IntegerSerializer = 'org.apache.kafka.common.serialization.IntegerSerializer';
const spec = (name: string) => ({ name, numberOfPartitions: 1, replicationFactor: 1 });

test('topic routes: reading and consuming open to users; create, delete, bulk and produce admin only', async () => {
  const { user } = t.tokens;
  for (const url of ['/api/topics', '/api/topics/list', '/api/topics/init', '/api/topics/x', '/api/topics/x/consume'])
    await assertRefusals(t.node, user, 'GET', url, { adminOnly: false });
  await assertRefusals(t.node, user, 'POST', '/api/topics/x/consume', { adminOnly: false, body: {} });
  await assertRefusals(t.node, user, 'POST', '/api/topics', { adminOnly: true, body: spec('x') });
  await assertRefusals(t.node, user, 'POST', '/api/bulk/topics', { adminOnly: true, body: [spec('x')] });
  await assertRefusals(t.node, user, 'DELETE', '/api/topics/x', { adminOnly: true });
  await assertRefusals(t.node, user, 'POST', '/api/topics/x/produce', { adminOnly: true, body: { messages: [] } });
});

test('create, list, describe, delete; a second create is refused with the broker reason', async () => {
  const { admin, user } = t.tokens;
  const body = { ...spec('life'), numberOfPartitions: 3, options: { 'retention.ms': '3600000' } };
  const created = await t.node.call('POST', '/api/topics', { token: admin, body });
  assert.deepEqual([created.status, created.headers.location, created.body], [201, '/api/topics', body]);
  const exists = await t.node.call('POST', '/api/topics', { token: admin, body });
  assert.deepEqual(
    [exists.status, exists.body],
    [400, badRequest("Unable to create Kafka topic life: Topic 'life' already exists.")],
  );
  for (const url of ['/api/topics', '/api/topics/list']) {
    const list = await t.node.call('GET', url, { token: user });
    assert.deepEqual([url, list.status, list.body], [url, 200, ['life']]);
  }
  const described = await t.node.call('GET', '/api/topics/life', { token: user });
  assert.deepEqual([described.status, described.body], [200, body]);

  const deleted = await t.node.call('DELETE', '/api/topics/life', { token: admin });
  assert.deepEqual([deleted.status, deleted.text], [204, '']);
  const again = await t.node.call('DELETE', '/api/topics/life', { token: admin });
  assert.deepEqual([again.status, again.body], [404, notFound('Topic to delete does not exist.')]);
  const missing = await t.node.call('GET', '/api/topics/life', { token: user });
  assert.deepEqual([missing.status, missing.body], [404, notFound('Requested topic does not exist')]);

  const audit = await t.node.call('GET', '/api/audit?kind=topic', { token: admin });
  assert.deepEqual(
    (audit.body as { entries: { action: string; id: string }[] }).entries.map((e) => [e.action, e.id]),
    [
      ['delete-failed', 'life'],
      ['delete', 'life'],
      ['delete', 'life'],
      ['create-failed', 'life'],
      ['create', 'life'],
      ['create', 'life'],
    ],
  );
});

test('an invalid topic body: 400 TOPIC_INVALID listing every violation', async () => {
  const cases: [unknown, string[]][] = [
    [
      { name: 'v', numberOfPartitions: 0, replicationFactor: 1 },
      ['$.numberOfPartitions: must be an integer >= 1, found 0'],
    ],
    [
      { name: 'bad name!', numberOfPartitions: 1, replicationFactor: 'two' },
      [
        "$.name: 'bad name!' contains characters other than ASCII letters, digits, '.', '_' and '-'",
        '$.replicationFactor: must be an integer >= 1, found string "two"',
      ],
    ],
    [{ numberOfPartitions: 1, replicationFactor: 1 }, ['$.name: is required']],
  ];
  for (const [body, errors] of cases) {
    const res = await t.node.call('POST', '/api/topics', { token: t.tokens.admin, body });
    assert.deepEqual([res.status, res.body], [400, invalid(errors)], JSON.stringify(body));
  }
});

test('bulk and the earlier array form: a result per topic; GET /api/topics/init tells whether the Weir topics exist', async () => {
  const { admin, user } = t.tokens;
  const bulk = await t.node.call('POST', '/api/bulk/topics', { token: admin, body: [spec('b1'), spec('b1')] });
  assert.deepEqual(
    [bulk.status, bulk.body],
    [
      201,
      [
        { name: 'b1', result: 'success' },
        { name: 'b1', result: 'failure', message: "Topic 'b1' already exists." },
      ],
    ],
  );
  const earlier = await t.node.call('POST', '/api/topics', { token: admin, body: [spec('b2'), spec('b1')] });
  assert.deepEqual(
    [earlier.status, earlier.body],
    [
      201,
      [
        { result: 'success', name: 'b2' },
        { result: 'failure', message: "Topic 'b1' already exists." },
      ],
    ],
  );
  const init = await t.node.call('GET', '/api/topics/init', { token: user });
  assert.deepEqual([init.status, init.body], [200, { initialized: false }]);
});

test('produce, then consume from the earliest offset: the messages with their keys, values and headers', async () => {
  const { admin, user } = t.tokens;
  await t.node.call('POST', '/api/topics', { token: admin, body: spec('events') });
  const produced = await t.node.call('POST', '/api/topics/events/produce', {
    token: admin,
    body: { messages: [{ key: 'k', value: 'one', headers: { h: 'v' } }, { value: 'two' }] },
  });
  assert.deepEqual([produced.status, produced.body], [201, { result: 'success' }]);

  const opened = await t.node.call('POST', '/api/topics/events/consume', {
    token: user,
    body: { offset: 'earliest', maxEvents: 2, maxTimeoutSeconds: 5 },
  });
  assert.deepEqual(
    [opened.status, opened.headers.location, opened.body],
    [201, '/api/topics/events/consume', { status: 'CREATED' }],
  );
  const read = await t.node.call('GET', '/api/topics/events/consume', { token: user });
  const at = (m: { timestamp: number }) => (assert.equal(typeof m.timestamp, 'number'), { ...m, timestamp: 0 });
  const body = read.body as { status: string; messages: { timestamp: number }[] };
  assert.deepEqual(
    [read.status, { ...body, messages: body.messages.map(at) }],
    [
      200,
      {
        status: 'COMPLETED',
        messages: [
          { key: 'k', value: 'one', partition: 0, offset: 0, timestamp: 0, headers: { h: 'v' } },
          { key: null, value: 'two', partition: 0, offset: 1, timestamp: 0 },
        ],
      },
    ],
  );
  const fromIndex = await t.node.call('GET', '/api/topics/events/consume?index=1', { token: user });
  assert.deepEqual((fromIndex.body as { messages: unknown[] }).messages.length, 1);
  const badIndex = await t.node.call('GET', '/api/topics/events/consume?index=-1', { token: user });
  assert.deepEqual(
    [badIndex.status, badIndex.body],
    [400, badRequest("querystring.index must be an integer >= 0 (the first message to return), found '-1'")],
  );
  const wordIndex = await t.node.call('GET', '/api/topics/events/consume?index=first', { token: user });
  assert.deepEqual(
    [wordIndex.status, wordIndex.body],
    [400, badRequest("querystring.index must be an integer >= 0 (the first message to return), found 'first'")],
  );
});

test('values that do not fit their serializer: 400 naming each message; nothing is written', async () => {
  const { admin } = t.tokens;
  await t.node.call('POST', '/api/topics', { token: admin, body: spec('ints') });
  const res = await t.node.call('POST', '/api/topics/ints/produce', {
    token: admin,
    body: { valueSerializer: IntegerSerializer, messages: [{ value: 1 }, { value: 'abc' }] },
  });
  const errors = [
    'messages[1].value: "abc" does not fit IntegerSerializer; accepted: a JSON integer from -2147483648 to 2147483647',
  ];
  assert.deepEqual(
    [res.status, res.body],
    [
      400,
      { ...badRequest(`Unable to produce the messages, error(s) in serializing -- [${errors.join(', ')}]`), errors },
    ],
  );
  await t.node.call('POST', '/api/topics/ints/consume', { token: admin, body: { offset: 'earliest' } });
  const written = await t.node.call('GET', '/api/topics/ints/consume', { token: admin });
  assert.deepEqual(written.body, { status: 'RUNNING', messages: [] });
  const noValue = await t.node.call('POST', '/api/topics/ints/produce', {
    token: admin,
    body: { messages: [{ key: 'b' }] },
  });
  assert.deepEqual(
    [noValue.status, noValue.body],
    [
      400,
      {
        ...badRequest("body.messages.0 must have required property 'value'"),
        errors: ["body.messages.0 must have required property 'value'"],
      },
    ],
  );
});

test('produce ?offsets=true names where each message went; consume untilEnd completes at the end', async () => {
  const { admin, user } = t.tokens;
  await t.node.call('POST', '/api/topics', { token: admin, body: spec('placed') });
  const first = await t.node.call('POST', '/api/topics/placed/produce', {
    token: admin,
    body: { messages: [{ value: 'a' }] },
  });
  assert.deepEqual([first.status, first.body], [201, { result: 'success' }], 'the spec answer without the query');
  const placed = await t.node.call('POST', '/api/topics/placed/produce?offsets=true', {
    token: admin,
    body: { messages: [{ value: 'b' }, { key: 'k', value: 'c' }] },
  });
  assert.deepEqual(
    [placed.status, placed.body],
    [
      201,
      {
        result: 'success',
        offsets: [
          { partition: 0, offset: 1 },
          { partition: 0, offset: 2 },
        ],
      },
    ],
  );
  const bad = await t.node.call('POST', '/api/topics/placed/produce?offsets=yes', {
    token: admin,
    body: { messages: [{ value: 'd' }] },
  });
  assert.deepEqual(
    [bad.status, bad.body],
    [
      400,
      badRequest(
        "querystring.offsets must be true or false (true to have the partition and offset of each message in the answer), found 'yes'",
      ),
    ],
  );

  await t.node.call('POST', '/api/topics/placed/consume', { token: user, body: { untilEnd: true } });
  const read = await t.node.call('GET', '/api/topics/placed/consume', { token: user });
  const body = read.body as { status: string; messages: { value: string }[] };
  assert.deepEqual([body.status, body.messages.map((m) => m.value)], ['COMPLETED', ['a', 'b', 'c']]);
  const wrong = await t.node.call('POST', '/api/topics/placed/consume', { token: user, body: { untilEnd: 'yes' } });
  assert.deepEqual(wrong.status, 400);
});

test('produce and consume on a missing topic: 404 with the spec text; reading without a session: 404', async () => {
  const { admin, user } = t.tokens;
  const produce = await t.node.call('POST', '/api/topics/nope/produce', {
    token: admin,
    body: { messages: [{ value: 'x' }] },
  });
  assert.deepEqual([produce.status, produce.body], [404, writeMissing]);
  const consume = await t.node.call('POST', '/api/topics/nope/consume', { token: user, body: {} });
  assert.deepEqual([consume.status, consume.body], [404, writeMissing]);
  const read = await t.node.call('GET', '/api/topics/nope/consume', { token: user });
  assert.deepEqual(
    [read.status, read.body],
    [
      404,
      notFound(
        'No consumer session of yours for topic nope; create one with POST /api/topics/nope/consume (sessions expire when not read for a while).',
      ),
    ],
  );
});

test('an unreachable cluster: 503 naming it', async () => {
  t.node.topics.unreachable = true;
  try {
    const res = await t.node.call('GET', '/api/topics', { token: t.tokens.user });
    assert.deepEqual(
      [res.status, res.body],
      [
        503,
        {
          status: 'SERVICE_UNAVAILABLE',
          message: 'Service unavailable',
          debugMessage: 'The Kafka cluster (in-memory:9092) is not reachable: Connection to in-memory:9092 refused',
        },
      ],
    );
  } finally {
    t.node.topics.unreachable = false;
  }
});
