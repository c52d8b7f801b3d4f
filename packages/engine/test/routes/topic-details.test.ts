import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, schemaError } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();
const missing = { status: 'NOT_FOUND', message: 'Resource not found', debugMessage: 'Requested topic does not exist' };

async function topicWith(name: string, values: string[], partitions = 1) {
  const { admin } = t.tokens;
  const created = await t.node.call('POST', '/api/topics', {
    token: admin,
    body: { name, numberOfPartitions: partitions, replicationFactor: 1 },
  });
  assert.equal(created.status, 201, created.text);
  if (values.length === 0) return;
  const produced = await t.node.call('POST', `/api/topics/${name}/produce`, {
    token: admin,
    body: { messages: values.map((value) => ({ value })) },
  });
  assert.equal(produced.status, 201, produced.text);
}

test('topic depth routes: reading open to users; settings, partitions and purge admin only', async () => {
  const { user } = t.tokens;
  for (const url of ['/api/topics/x/partitions', '/api/topics/x/configs'])
    await assertRefusals(t.node, user, 'GET', url, { adminOnly: false });
  await assertRefusals(t.node, user, 'PATCH', '/api/topics/x/configs', { adminOnly: true, body: { set: {} } });
  await assertRefusals(t.node, user, 'POST', '/api/topics/x/partitions', { adminOnly: true, body: { count: 2 } });
  await assertRefusals(t.node, user, 'POST', '/api/topics/x/purge', { adminOnly: true, body: { confirm: 'x' } });
});

test('partitions: leader, replicas, in-sync replicas, offsets, counts and sizes; 404 for a missing topic', async () => {
  await topicWith('depth', ['a', 'bb', 'ccc'], 2);
  const read = await t.node.call('GET', '/api/topics/depth/partitions', { token: t.tokens.user });
  assert.deepEqual(
    [read.status, read.body],
    [
      200,
      {
        name: 'depth',
        messages: 3,
        sizeBytes: 6,
        partitions: [
          {
            partition: 0,
            leader: 1,
            replicas: [1],
            inSyncReplicas: [1],
            lowOffset: 0,
            highOffset: 3,
            messages: 3,
            sizeBytes: 6,
          },
          {
            partition: 1,
            leader: 1,
            replicas: [1],
            inSyncReplicas: [1],
            lowOffset: 0,
            highOffset: 0,
            messages: 0,
            sizeBytes: 0,
          },
        ],
      },
    ],
  );
  for (const url of ['/api/topics/nope/partitions', '/api/topics/nope/configs']) {
    const res = await t.node.call('GET', url, { token: t.tokens.user });
    assert.deepEqual([url, res.status, res.body], [url, 404, missing]);
  }
});

test('settings: changed ones marked; set and reset; broker refusals and bad bodies name the field', async () => {
  const { admin, user } = t.tokens;
  await topicWith('tuned', []);
  const setting = (name: string, value: string, changed: boolean) => ({
    name,
    value,
    source: changed ? 'DYNAMIC_TOPIC_CONFIG' : 'DEFAULT_CONFIG',
    changed,
    readOnly: false,
    sensitive: false,
  });
  const changed = await t.node.call('PATCH', '/api/topics/tuned/configs', {
    token: admin,
    body: { set: { 'retention.ms': '3600000', 'cleanup.policy': 'compact' } },
  });
  assert.equal(changed.status, 200, changed.text);
  const read = await t.node.call('GET', '/api/topics/tuned/configs', { token: user });
  assert.deepEqual([read.status, read.body], [200, changed.body]);
  assert.deepEqual(read.body, {
    name: 'tuned',
    settings: [
      setting('cleanup.policy', 'compact', true),
      setting('max.message.bytes', '1048588', false),
      setting('min.insync.replicas', '1', false),
      setting('retention.bytes', '-1', false),
      setting('retention.ms', '3600000', true),
      setting('segment.bytes', '1073741824', false),
    ],
  });
  const reset = await t.node.call('PATCH', '/api/topics/tuned/configs', {
    token: admin,
    body: { reset: ['cleanup.policy'] },
  });
  const marked = (reset.body as { settings: { name: string; changed: boolean }[] }).settings
    .filter((s) => s.changed)
    .map((s) => s.name);
  assert.deepEqual([reset.status, marked], [200, ['retention.ms']]);
  const described = await t.node.call('GET', '/api/topics/tuned', { token: user });
  assert.deepEqual((described.body as { options: unknown }).options, { 'retention.ms': '3600000' });

  const cases: [unknown, number, unknown][] = [
    [
      { set: { 'no.such': '1' } },
      400,
      badRequest('Unable to change Kafka topic tuned: Unknown topic config name: no.such'),
    ],
    [{}, 400, badRequest('body: give at least one setting in set or reset')],
    [{ set: { 'retention.ms': 5 } }, 400, schemaError('body.set.retention.ms must be string')],
    [
      { set: { 'retention.ms': '1' }, reset: ['retention.ms'] },
      400,
      badRequest('body.reset: retention.ms also in body.set'),
    ],
    [{ sets: {} }, 400, schemaError("body must NOT have additional properties 'sets'")],
    // Kafka's protocol carries config names and values of at most 32,767 bytes: 16,385 'é' are 32,770
    [
      { set: { 'retention.ms': '1', 'x.y': 'é'.repeat(16_385) } },
      400,
      badRequest('body.set.x.y: at most 32767 bytes (UTF-8) reach Kafka; found 32770'),
    ],
    [
      { reset: ['a', 'n'.repeat(40_000)] },
      400,
      badRequest('body.reset[1]: at most 32767 bytes (UTF-8) reach Kafka; found 40000'),
    ],
  ];
  for (const [body, status, answer] of cases) {
    const res = await t.node.call('PATCH', '/api/topics/tuned/configs', { token: admin, body });
    assert.deepEqual([body, res.status, res.body], [body, status, answer]);
  }
  const gone = await t.node.call('PATCH', '/api/topics/nope/configs', {
    token: admin,
    body: { reset: ['retention.ms'] },
  });
  assert.deepEqual([gone.status, gone.body], [404, missing]);
});

test('add partitions: grows the topic; a count not above the current one is refused', async () => {
  const { admin } = t.tokens;
  await topicWith('grow', []);
  const grown = await t.node.call('POST', '/api/topics/grow/partitions', { token: admin, body: { count: 3 } });
  assert.equal(grown.status, 200, grown.text);
  assert.deepEqual(
    (grown.body as { partitions: { partition: number }[] }).partitions.map((p) => p.partition),
    [0, 1, 2],
  );
  const same = await t.node.call('POST', '/api/topics/grow/partitions', { token: admin, body: { count: 3 } });
  assert.deepEqual(
    [same.status, same.body],
    [
      400,
      badRequest(
        'body.count: topic grow has 3 partitions; count must be greater (partitions can be added, never removed)',
      ),
    ],
  );
  const many = await t.node.call('POST', '/api/topics/grow/partitions', { token: admin, body: { count: 104 } });
  assert.deepEqual(
    [many.status, many.body],
    [
      400,
      badRequest(
        'body.count: at most 100 partitions can be added in one request; topic grow has 3, so count may be up to 103',
      ),
    ],
  );
  const beyond = await t.node.call('POST', '/api/topics/grow/partitions', { token: admin, body: { count: 1001 } });
  assert.equal(beyond.status, 400);
  const bad = await t.node.call('POST', '/api/topics/grow/partitions', { token: admin, body: { count: 'four' } });
  assert.deepEqual([bad.status, bad.body], [400, schemaError('body.count must be integer')]);
  const gone = await t.node.call('POST', '/api/topics/nope/partitions', { token: admin, body: { count: 2 } });
  assert.deepEqual([gone.status, gone.body], [404, missing]);
});

test('purge: up to offsets or a time, with the name typed again; audited', async () => {
  const { admin, user } = t.tokens;
  await topicWith('purged', ['a', 'b', 'c', 'd']);
  const unconfirmed = await t.node.call('POST', '/api/topics/purged/purge', {
    token: admin,
    body: { confirm: 'purge', offsets: { 0: 2 } },
  });
  assert.deepEqual(
    [unconfirmed.status, unconfirmed.body],
    [
      400,
      badRequest(
        "body.confirm must be the topic's name (purged) to delete its records; records deleted cannot be restored.",
      ),
    ],
  );
  const purged = await t.node.call('POST', '/api/topics/purged/purge', {
    token: admin,
    body: { confirm: 'purged', offsets: { 0: 2 } },
  });
  assert.deepEqual(
    [purged.status, purged.body],
    [200, { name: 'purged', partitions: [{ partition: 0, lowOffset: 2 }] }],
  );
  const after = await t.node.call('GET', '/api/topics/purged/partitions', { token: user });
  const [p0] = (after.body as { partitions: { lowOffset: number; highOffset: number; messages: number }[] }).partitions;
  assert.deepEqual([p0!.lowOffset, p0!.highOffset, p0!.messages], [2, 4, 2]);

  const all = await t.node.call('POST', '/api/topics/purged/purge', {
    token: admin,
    body: { confirm: 'purged', beforeTimestamp: Date.now() + 60_000 },
  });
  assert.deepEqual([all.status, all.body], [200, { name: 'purged', partitions: [{ partition: 0, lowOffset: 4 }] }]);

  const cases: [unknown, unknown][] = [
    [{ confirm: 'purged' }, badRequest('body: give exactly one of offsets and beforeTimestamp')],
    [
      { confirm: 'purged', offsets: { 0: 1 }, beforeTimestamp: 1 },
      badRequest('body: give exactly one of offsets and beforeTimestamp'),
    ],
    [
      { confirm: 'purged', offsets: { 0: 9 } },
      badRequest('body.offsets.0: 9 is beyond the end of partition 0 (high offset 4)'),
    ],
    [
      { confirm: 'purged', offsets: { 3: 0 } },
      badRequest('body.offsets.3: topic purged has no partition 3 (it has 1)'),
    ],
    [{ confirm: 'purged', offsets: { x: 0 } }, badRequest('body.offsets.x: not a partition number (an integer >= 0)')],
    [{ offsets: { 0: 1 } }, schemaError("body must have required property 'confirm'")],
  ];
  for (const [body, answer] of cases) {
    const res = await t.node.call('POST', '/api/topics/purged/purge', { token: admin, body });
    assert.deepEqual([body, res.status, res.body], [body, 400, answer]);
  }
  const audit = await t.node.call('GET', '/api/audit?kind=topic&id=purged', { token: admin });
  const actions = (audit.body as { entries: { action: string }[] }).entries.map((e) => e.action);
  assert.deepEqual(
    actions
      .filter((a) => a.startsWith('purge'))
      .slice(0, 2)
      .reverse(),
    ['purge', 'purge-failed'],
  );
  assert.ok(actions.includes('create'));
});
