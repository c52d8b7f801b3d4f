import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { startTestNode, useTestNode } from '@weir/test-helpers/test-node';

/** Topic administration on the real broker (spec: Endpoints → Topics, Versioning → earlier forms). */
let admin: string;
let member: string;
const unique = (label: string) => `admin-${label}-${randomBytes(4).toString('hex')}`;
const invalid = (violations: string | string[]) => {
  const errors = typeof violations === 'string' ? [violations] : violations;
  return {
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: `Unable to create Kafka topic, error(s) in validating schema -- [${errors.join(', ')}]`,
    errors,
  };
};

const t = useTestNode({}, async () => {
  admin = await t.initAdmin();
  member = await t.createUser(admin, 'reader');
});

test('create, list, describe and delete a topic', async () => {
  const name = unique('life');
  const created = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name, numberOfPartitions: 3, replicationFactor: 1, options: { 'retention.ms': '3600000' } },
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.location, '/api/topics');
  const body = created.body as {
    name: string;
    numberOfPartitions: number;
    replicationFactor: number;
    options: Record<string, string>;
  };
  assert.deepEqual(
    { ...body, options: undefined },
    { name, numberOfPartitions: 3, replicationFactor: 1, options: undefined },
  );
  assert.equal(body.options['retention.ms'], '3600000');
  assert.equal(body.options['cleanup.policy'], 'delete');

  const list = await t.call('GET', '/api/topics', { token: member });
  assert.equal(list.status, 200);
  assert.ok((list.body as string[]).includes(name));
  assert.ok(
    (list.body as string[]).every((n) => typeof n === 'string' && !n.startsWith('__')),
    'internal topics are not listed',
  );

  const described = await t.call('GET', `/api/topics/${name}`, { token: member });
  assert.equal(described.status, 200);
  const d = described.body as typeof body;
  assert.deepEqual(
    { name: d.name, numberOfPartitions: d.numberOfPartitions, replicationFactor: d.replicationFactor },
    { name, numberOfPartitions: 3, replicationFactor: 1 },
  );
  // Every effective setting, each as a string, including the one we set.
  assert.equal(d.options['retention.ms'], '3600000');
  for (const key of ['cleanup.policy', 'retention.bytes', 'segment.bytes', 'min.insync.replicas', 'max.message.bytes'])
    assert.equal(typeof d.options[key], 'string', key);
  assert.ok(Object.values(d.options).every((v) => typeof v === 'string'));
  assert.ok(Object.keys(d.options).length >= 25, `all effective settings, got ${Object.keys(d.options).length}`);

  const deleted = await t.call('DELETE', `/api/topics/${name}`, { token: admin });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  const again = await t.call('DELETE', `/api/topics/${name}`, { token: admin });
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, {
    status: 'NOT_FOUND',
    message: 'Resource not found',
    debugMessage: 'Topic to delete does not exist.',
  });
});

test('options round trip: retention.ms and cleanup.policy set on create are shown by describe', async () => {
  const name = unique('options');
  const res = await t.call('POST', '/api/topics', {
    token: admin,
    body: {
      name,
      numberOfPartitions: 1,
      replicationFactor: 1,
      options: { 'retention.ms': '86400000', 'cleanup.policy': 'compact', 'retention.bytes': -1 },
    },
  });
  assert.equal(res.status, 201);
  const d = (await t.call('GET', `/api/topics/${name}`, { token: admin })).body as { options: Record<string, string> };
  assert.equal(d.options['retention.ms'], '86400000');
  assert.equal(d.options['cleanup.policy'], 'compact');
  assert.equal(d.options['retention.bytes'], '-1');
});

test('describe a missing topic → 404 with the spec text', async () => {
  const res = await t.call('GET', `/api/topics/${unique('missing')}`, { token: member });
  assert.equal(res.status, 404);
  assert.deepEqual(res.body, {
    status: 'NOT_FOUND',
    message: 'Resource not found',
    debugMessage: 'Requested topic does not exist',
  });
});

test('each invalid input → 400 listing every violated field', async () => {
  const cases: [unknown, string | string[]][] = [
    [
      { name: unique('v'), numberOfPartitions: '3', replicationFactor: 1 },
      '$.numberOfPartitions: must be an integer >= 1, found string "3"',
    ],
    [
      { name: unique('v'), numberOfPartitions: 0, replicationFactor: 1 },
      '$.numberOfPartitions: must be an integer >= 1, found 0',
    ],
    [
      { name: unique('v'), numberOfPartitions: 1.5, replicationFactor: 1 },
      '$.numberOfPartitions: must be an integer >= 1, found number 1.5',
    ],
    [
      { name: unique('v'), numberOfPartitions: 1, replicationFactor: 0 },
      '$.replicationFactor: must be an integer >= 1, found 0',
    ],
    [
      { name: unique('v'), numberOfPartitions: -1, replicationFactor: 'two' },
      [
        '$.numberOfPartitions: must be an integer >= 1, found -1',
        '$.replicationFactor: must be an integer >= 1, found string "two"',
      ],
    ],
    [{ numberOfPartitions: 1, replicationFactor: 1 }, '$.name: is required'],
    [
      { name: 'bad name!', numberOfPartitions: 1, replicationFactor: 1 },
      "$.name: 'bad name!' contains characters other than ASCII letters, digits, '.', '_' and '-'",
    ],
    [
      { name: 'x'.repeat(250), numberOfPartitions: 1, replicationFactor: 1 },
      '$.name: is 250 characters long; at most 249 are allowed',
    ],
    [{ name: '..', numberOfPartitions: 1, replicationFactor: 1 }, "$.name: must not be '.' or '..'"],
    [{ name: '', numberOfPartitions: 1, replicationFactor: 1 }, '$.name: must not be empty'],
    [{ name: 7, numberOfPartitions: 1, replicationFactor: 1 }, '$.name: must be a string, found number 7'],
    [{ name: unique('v'), replicationFactor: 1 }, '$.numberOfPartitions: is required'],
    [
      { name: unique('v'), numberOfPartitions: 1, replicationFactor: 1, options: { 'retention.ms': { a: 1 } } },
      '$.options.retention.ms: must be a string, found an object',
    ],
    [
      { name: unique('v'), numberOfPartitions: 1, replicationFactor: 1, options: ['x'] },
      '$.options: must be an object of setting name to string value, found an array',
    ],
    [
      { name: unique('v'), numberOfPartitions: 1, replicationFactor: 1, partitions: 4 },
      '$.partitions: unknown field; accepted: name, numberOfPartitions, replicationFactor, options, compact',
    ],
    [
      'topic',
      '$: must be an object with name, numberOfPartitions, replicationFactor and options, found string "topic"',
    ],
  ];
  for (const [body, details] of cases) {
    const res = await t.call('POST', '/api/topics', { token: admin, body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(res.body, invalid(details), JSON.stringify(body));
  }
});

test('broker refusals → 400 with the broker reason, never 500', async () => {
  const name = unique('refused');
  assert.equal(
    (await t.call('POST', '/api/topics', { token: admin, body: { name, numberOfPartitions: 1, replicationFactor: 1 } }))
      .status,
    201,
  );
  const refusal = (topic: string, reason: string) => ({
    status: 'BAD_REQUEST',
    message: 'Resource validation failed',
    debugMessage: `Unable to create Kafka topic ${topic}: ${reason}`,
  });
  const exists = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name, numberOfPartitions: 1, replicationFactor: 1 },
  });
  assert.deepEqual([exists.status, exists.body], [400, refusal(name, `Topic '${name}' already exists.`)]);

  const other = unique('refused');
  const unknownConfig = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name: other, numberOfPartitions: 1, replicationFactor: 1, options: { 'no.such.setting': 'x' } },
  });
  assert.deepEqual(
    [unknownConfig.status, unknownConfig.body],
    [400, refusal(other, 'Unknown topic config name: no.such.setting')],
  );
  const badValue = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name: other, numberOfPartitions: 1, replicationFactor: 1, options: { 'retention.ms': 'soon' } },
  });
  assert.deepEqual(
    [badValue.status, badValue.body],
    [400, refusal(other, 'Invalid value soon for configuration retention.ms: Not a number of type LONG')],
  );
  const policy = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name: other, numberOfPartitions: 1, replicationFactor: 1, options: { 'cleanup.policy': 'sometimes' } },
  });
  assert.deepEqual(
    [policy.status, policy.body],
    [
      400,
      refusal(
        other,
        'Invalid value sometimes for configuration cleanup.policy: String must be one of: compact, delete',
      ),
    ],
  );
  const replicas = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name: other, numberOfPartitions: 1, replicationFactor: 3 },
  });
  assert.deepEqual(
    [replicas.status, replicas.body],
    [
      400,
      refusal(
        other,
        'Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered.',
      ),
    ],
  );
  assert.equal((await t.call('GET', `/api/topics/${other}`, { token: admin })).status, 404, 'nothing was created');
});

test('bulk create: per-topic results, failures carry the broker message', async () => {
  const [a, b] = [unique('bulk'), unique('bulk')];
  assert.equal(
    (
      await t.call('POST', '/api/topics', {
        token: admin,
        body: { name: b, numberOfPartitions: 1, replicationFactor: 1 },
      })
    ).status,
    201,
  );
  const res = await t.call('POST', '/api/bulk/topics', {
    token: admin,
    body: [
      { name: a, numberOfPartitions: 2, replicationFactor: 1, options: { 'cleanup.policy': 'compact' } },
      { name: b, numberOfPartitions: 1, replicationFactor: 1 },
    ],
  });
  assert.equal(res.status, 201);
  assert.equal(res.headers.location, '/api/topics');
  assert.deepEqual(res.body, [
    { name: a, result: 'success' },
    { name: b, result: 'failure', message: `Topic '${b}' already exists.` },
  ]);
  const d = (await t.call('GET', `/api/topics/${a}`, { token: admin })).body as {
    numberOfPartitions: number;
    options: Record<string, string>;
  };
  assert.equal(d.numberOfPartitions, 2);
  assert.equal(d.options['cleanup.policy'], 'compact');

  const bad = await t.call('POST', '/api/bulk/topics', {
    token: admin,
    body: [
      { name: unique('bulk'), numberOfPartitions: 1, replicationFactor: 1 },
      { name: 'ok', numberOfPartitions: 0, replicationFactor: 1 },
    ],
  });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, invalid('$[1].numberOfPartitions: must be an integer >= 1, found 0'));
  const notArray = await t.call('POST', '/api/bulk/topics', { token: admin, body: { name: 'x' } });
  assert.deepEqual([notArray.status, notArray.body], [400, invalid('$: must be an array of topics, found an object')]);
  const empty = await t.call('POST', '/api/bulk/topics', { token: admin, body: [] });
  assert.deepEqual([empty.status, empty.body], [201, []]);
});

test('earlier form: an array to POST /api/topics with compact, answered per topic', async () => {
  const [a, b] = [unique('early'), unique('early')];
  const res = await t.call('POST', '/api/topics', {
    token: admin,
    body: [
      { name: a, numberOfPartitions: 1, replicationFactor: 1, compact: true },
      { name: a, numberOfPartitions: 1, replicationFactor: 1, compact: false },
      { name: b, numberOfPartitions: 1, replicationFactor: 1, compact: false },
    ],
  });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body, [
    { result: 'success', name: a },
    { result: 'failure', message: `Topic '${a}' already exists.` },
    { result: 'success', name: b },
  ]);
  const da = (await t.call('GET', `/api/topics/${a}`, { token: admin })).body as { options: Record<string, string> };
  const db = (await t.call('GET', `/api/topics/${b}`, { token: admin })).body as { options: Record<string, string> };
  assert.equal(da.options['cleanup.policy'], 'compact');
  assert.equal(db.options['cleanup.policy'], 'delete');
  const bad = await t.call('POST', '/api/topics', {
    token: admin,
    body: [{ name: unique('early'), numberOfPartitions: 1, replicationFactor: 1, compact: 'yes' }],
  });
  assert.deepEqual([bad.status, bad.body], [400, invalid('$[0].compact: must be true or false, found string "yes"')]);
});

test('legacy GET /api/topics/list and GET /api/topics/init (with the weir_* topics)', async () => {
  const prefix = `p${randomBytes(4).toString('hex')}`;
  const node = await startTestNode({ 'weir.topic.prefix': prefix });
  try {
    const token = await node.initAdmin();
    const initBefore = await node.call('GET', '/api/topics/init', { token });
    assert.deepEqual([initBefore.status, initBefore.body], [200, { initialized: false }]);
    // The node creates <prefix>_alerts itself at start; the six configuration topics are still missing.
    const required = ['nodes', 'rules', 'tasks', 'pipelines', 'topologies', 'lookups', 'alerts'].map(
      (s) => `${prefix}_${s}`,
    );
    const made = await node.call('POST', '/api/bulk/topics', {
      token,
      body: required.slice(0, 5).map((name) => ({ name, numberOfPartitions: 1, replicationFactor: 1 })),
    });
    assert.equal(made.status, 201);
    assert.deepEqual(
      (await node.call('GET', '/api/topics/init', { token })).body,
      { initialized: false },
      'lookups topic still missing',
    );
    await node.call('POST', '/api/topics', {
      token,
      body: {
        name: required[5],
        numberOfPartitions: 1,
        replicationFactor: 1,
        options: { 'cleanup.policy': 'compact' },
      },
    });
    assert.deepEqual((await node.call('GET', '/api/topics/init', { token })).body, { initialized: true });

    const list = await node.call('GET', '/api/topics/list', { token });
    assert.equal(list.status, 200);
    for (const name of required) assert.ok((list.body as string[]).includes(name), name);
    const latest = await node.call('GET', '/api/topics', { token });
    assert.deepEqual(latest.body, list.body, 'both list every topic name, sorted');
    assert.deepEqual(list.body, [...(list.body as string[])].sort());
  } finally {
    await node.stop();
  }
});

test('roles: a user may list, describe and consume, not create, delete or produce', async () => {
  const name = unique('roles');
  assert.equal(
    (
      await t.call('POST', '/api/topics', {
        token: member,
        body: { name, numberOfPartitions: 1, replicationFactor: 1 },
      })
    ).status,
    403,
  );
  assert.equal((await t.call('POST', '/api/bulk/topics', { token: member, body: [] })).status, 403);
  assert.equal(
    (await t.call('POST', '/api/topics', { token: admin, body: { name, numberOfPartitions: 1, replicationFactor: 1 } }))
      .status,
    201,
  );
  assert.equal((await t.call('DELETE', `/api/topics/${name}`, { token: member })).status, 403);
  assert.equal(
    (await t.call('POST', `/api/topics/${name}/produce`, { token: member, body: { messages: [] } })).status,
    403,
  );
  for (const path of ['/api/topics', '/api/topics/list', '/api/topics/init', `/api/topics/${name}`]) {
    assert.equal((await t.call('GET', path, { token: member })).status, 200, path);
    assert.equal((await t.call('GET', path)).status, 401, path);
  }
  assert.equal(
    (
      await t.call('POST', `/api/topics/${name}/consume`, {
        token: member,
        body: { maxEvents: 1, maxTimeoutSeconds: 1 },
      })
    ).status,
    201,
  );
});
