import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, schemaError } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode({ 'weir.application.id': 'weir-app' });
const missing = {
  status: 'NOT_FOUND',
  message: 'Resource not found',
  debugMessage: 'Requested consumer group does not exist',
};
const member = {
  id: 'm-1',
  clientId: 'reader-1',
  host: '/10.0.0.7',
  assignments: [{ topic: 'orders', partitions: [0] }],
};

async function orders(count: number) {
  const { admin } = t.tokens;
  await t.node.call('POST', '/api/topics', {
    token: admin,
    body: { name: 'orders', numberOfPartitions: 1, replicationFactor: 1 },
  });
  const messages = Array.from({ length: count }, (_, i) => ({ value: `o${i}` }));
  const res = await t.node.call('POST', '/api/topics/orders/produce', { token: admin, body: { messages } });
  assert.equal(res.status, 201, res.text);
}

test('consumer group routes: reading open to users; reset and delete admin only', async () => {
  const { user } = t.tokens;
  for (const url of ['/api/consumer-groups', '/api/consumer-groups/g', '/api/consumer-groups/g/lag-history'])
    await assertRefusals(t.node, user, 'GET', url, { adminOnly: false });
  await assertRefusals(t.node, user, 'POST', '/api/consumer-groups/g/reset-offsets', {
    adminOnly: true,
    body: { to: 'earliest' },
  });
  await assertRefusals(t.node, user, 'DELETE', '/api/consumer-groups/g', { adminOnly: true });
});

test('list and detail: state, members, committed and end offsets, lag; Weir topology groups link to topologies', async () => {
  const { admin, user } = t.tokens;
  await orders(10);
  t.node.topics.groups.add('readers', { orders: [4] }, [member]);
  t.node.topics.groups.add('weir-app', { orders: [10] });
  const topology = {
    id: 7,
    name: 'Orders',
    pipelines: [],
    enabled: false,
    group: 'default',
    input: 'orders',
    output: [],
  };
  const created = await t.node.call('POST', '/api/topologies', { token: admin, body: topology });
  assert.equal(created.status, 201, created.text);

  const list = await t.node.call('GET', '/api/consumer-groups', { token: user });
  assert.deepEqual(
    [list.status, list.body],
    [
      200,
      [
        { id: 'readers', state: 'Stable', members: 1, lag: 6, topologies: [] },
        { id: 'weir-app', state: 'Empty', members: 0, lag: 0, topologies: [{ id: 7, name: 'Orders' }] },
      ],
    ],
  );
  const detail = await t.node.call('GET', '/api/consumer-groups/readers', { token: user });
  assert.deepEqual(
    [detail.status, detail.body],
    [
      200,
      {
        id: 'readers',
        state: 'Stable',
        members: 1,
        lag: 6,
        protocolType: 'consumer',
        protocol: 'roundrobin',
        memberDetails: [member],
        partitions: [{ topic: 'orders', partition: 0, committedOffset: 4, endOffset: 10, lag: 6, member: 'm-1' }],
        topologies: [],
      },
    ],
  );
  const gone = await t.node.call('GET', '/api/consumer-groups/nope', { token: user });
  assert.deepEqual([gone.status, gone.body], [404, missing]);
});

test('lag history: the samples this node took, per group and partition', async () => {
  const { user } = t.tokens;
  t.node.topics.groups.add('history', { orders: [2] });
  await t.node.context.lagHistory.sample();
  t.node.topics.groups.add('history', { orders: [9] });
  await t.node.context.lagHistory.sample();
  const res = await t.node.call('GET', '/api/consumer-groups/history/lag-history', { token: user });
  assert.equal(res.status, 200, res.text);
  const body = res.body as { samples: { time: string; lag: number; partitions: unknown[] }[] };
  assert.deepEqual(
    { ...body, samples: body.samples.map((s) => ({ ...s, time: typeof s.time })) },
    {
      id: 'history',
      sampleSeconds: 30,
      keepMinutes: 60,
      samples: [
        { time: 'string', lag: 8, partitions: [{ topic: 'orders', partition: 0, lag: 8 }] },
        { time: 'string', lag: 1, partitions: [{ topic: 'orders', partition: 0, lag: 1 }] },
      ],
    },
  );
  assert.ok(Date.parse(body.samples[0]!.time) <= Date.parse(body.samples[1]!.time));
  const gone = await t.node.call('GET', '/api/consumer-groups/nope/lag-history', { token: user });
  assert.deepEqual([gone.status, gone.body], [404, missing]);
});

test('reset offsets: refused while the group has members; earliest, latest, an offset; bad bodies name the field', async () => {
  const { admin, user } = t.tokens;
  t.node.topics.groups.add('resettable', { orders: [3] }, [member]);
  const reset = (body: unknown) =>
    t.node.call('POST', '/api/consumer-groups/resettable/reset-offsets', { token: admin, body });
  const active = await reset({ to: 'earliest' });
  assert.deepEqual(
    [active.status, active.body],
    [
      400,
      badRequest(
        'Unable to reset the offsets of group resettable: it has 1 active member (state Stable); stop its consumers first.',
      ),
    ],
  );
  t.node.topics.groups.leave('resettable');
  const cases: [unknown, number][] = [
    [{ to: 'earliest' }, 0],
    [{ to: 'latest' }, 10],
    [{ to: 'offset', offset: 5 }, 5],
  ];
  for (const [body, offset] of cases) {
    const res = await reset(body);
    assert.deepEqual(
      [body, res.status, res.body],
      [body, 200, { id: 'resettable', offsets: [{ topic: 'orders', partition: 0, offset }] }],
    );
  }
  const detail = await t.node.call('GET', '/api/consumer-groups/resettable', { token: user });
  assert.equal((detail.body as { lag: number }).lag, 5);

  const bad: [unknown, unknown][] = [
    [{ to: 'offset' }, badRequest('body.offset: required with to=offset')],
    [{ to: 'timestamp' }, badRequest('body.timestamp: required with to=timestamp')],
    [{ to: 'latest', offset: 3 }, badRequest('body.offset: only with to=offset (to is latest)')],
    [
      { to: 'offset', offset: 11 },
      badRequest('body.offset: 11 is outside partition orders-0, which holds offsets 0 to 10'),
    ],
    [{ to: 'earliest', topics: ['nope'] }, badRequest('body.topics: topic nope does not exist')],
    [
      { to: 'soon' },
      schemaError('body.to must be equal to one of the allowed values: earliest, latest, timestamp, offset'),
    ],
  ];
  for (const [body, answer] of bad) {
    const res = await reset(body);
    assert.deepEqual([body, res.status, res.body], [body, 400, answer]);
  }
  const gone = await t.node.call('POST', '/api/consumer-groups/nope/reset-offsets', {
    token: admin,
    body: { to: 'earliest' },
  });
  assert.deepEqual([gone.status, gone.body], [404, missing]);
});

test('delete: refused while the group has members, then deleted; 404 after', async () => {
  const { admin } = t.tokens;
  t.node.topics.groups.add('doomed', { orders: [1] }, [member]);
  const active = await t.node.call('DELETE', '/api/consumer-groups/doomed', { token: admin });
  assert.deepEqual(
    [active.status, active.body],
    [
      400,
      badRequest('Unable to delete group doomed: it has 1 active member (state Stable); stop its consumers first.'),
    ],
  );
  t.node.topics.groups.leave('doomed');
  const deleted = await t.node.call('DELETE', '/api/consumer-groups/doomed', { token: admin });
  assert.deepEqual([deleted.status, deleted.text], [204, '']);
  const again = await t.node.call('DELETE', '/api/consumer-groups/doomed', { token: admin });
  assert.deepEqual([again.status, again.body], [404, missing]);
  const audit = await t.node.call('GET', '/api/audit?kind=consumer-group&id=doomed', { token: admin });
  assert.deepEqual(
    (audit.body as { entries: { action: string }[] }).entries.map((e) => e.action),
    ['delete', 'delete-failed', 'delete'],
  );
});
