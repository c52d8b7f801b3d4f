import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Admin, Consumer } from '@platformatic/kafka';
import { kafkaConsumerGroupsDescribe } from '@weir/test-helpers/kafka-tools';
import { kcatEndOffsets, kcatOffsetsAt, kcatPartitions } from '@weir/test-helpers/kcat';
import { testBootstrap, useTestNode } from '@weir/test-helpers/test-node';

/**
 * Topics in depth and consumer groups through the HTTP API of a node on the real broker (issue 23):
 * the answers checked with kcat and kafka-consumer-groups, not with Weir's own reads.
 */
let admin: string;
let user: string;
const unique = (label: string) => `depth-${label}-${randomBytes(4).toString('hex')}`;
const t = useTestNode({ 'weir.groups.lag.sample-seconds': '1' }, async () => {
  admin = await t.initAdmin();
  user = await t.createUser(admin, 'reader');
});

async function topicWith(name: string, partitions: number, values: number) {
  const created = await t.call('POST', '/api/topics', {
    token: admin,
    body: { name, numberOfPartitions: partitions, replicationFactor: 1, options: { 'retention.ms': '-1' } },
  });
  assert.equal(created.status, 201, created.text);
  const messages = Array.from({ length: values }, (_, i) => ({ key: `k${i}`, value: `v${i}` }));
  const produced = await t.call('POST', `/api/topics/${name}/produce`, { token: admin, body: { messages } });
  assert.deepEqual(produced.body, { result: 'success' });
}

test('a topic in depth: partitions, settings, added partitions and a purge, as kcat sees them', async () => {
  const name = unique('topic');
  await topicWith(name, 2, 20);
  const read = await t.call('GET', `/api/topics/${name}/partitions`, { token: user });
  assert.equal(read.status, 200, read.text);
  const body = read.body as {
    messages: number;
    partitions: {
      partition: number;
      leader: number;
      inSyncReplicas: number[];
      highOffset: number;
      lowOffset: number;
    }[];
  };
  const [meta, ends] = await Promise.all([kcatPartitions(name), kcatEndOffsets(name, 2)]);
  assert.deepEqual(
    body.partitions.map((p) => [p.partition, p.leader, p.inSyncReplicas, p.lowOffset, p.highOffset]),
    meta.map((m) => [m.partition, m.leader, m.isrs, 0, ends[m.partition]]),
  );
  assert.equal(body.messages, 20);

  const settings = await t.call('PATCH', `/api/topics/${name}/configs`, {
    token: admin,
    body: { set: { 'segment.ms': '3600000' }, reset: ['retention.ms'] },
  });
  assert.equal(settings.status, 200, settings.text);
  assert.deepEqual(
    (settings.body as { settings: { name: string; changed: boolean }[] }).settings
      .filter((s) => s.changed)
      .map((s) => s.name),
    ['segment.ms'],
  );

  const grown = await t.call('POST', `/api/topics/${name}/partitions`, { token: admin, body: { count: 3 } });
  assert.equal(grown.status, 200, grown.text);
  assert.equal((await kcatPartitions(name)).length, 3);

  const purged = await t.call('POST', `/api/topics/${name}/purge`, {
    token: admin,
    body: { confirm: name, offsets: { 0: ends[0]! } },
  });
  assert.deepEqual([purged.status, purged.body], [200, { name, partitions: [{ partition: 0, lowOffset: ends[0] }] }]);
  assert.deepEqual(await kcatOffsetsAt(name, 3, -2), [ends[0], 0, 0]);
  const refused = await t.call('POST', `/api/topics/${name}/purge`, {
    token: user,
    body: { confirm: name, offsets: { 1: 1 } },
  });
  assert.equal(refused.status, 403);
});

test('a consumer group: lag as kafka-consumer-groups shows it, sampled over time; reset refused while it has a member', async () => {
  const topic = unique('group');
  await topicWith(topic, 1, 12);
  const id = unique('readers');
  const kafka = { clientId: 'weir-test-depth', bootstrapBrokers: [testBootstrap()] };
  const adminClient = new Admin(kafka);
  try {
    await adminClient.alterConsumerGroupOffsets({
      groupId: id,
      topics: [{ name: topic, partitionOffsets: [{ partition: 0, offset: 5n }] }],
    });
  } finally {
    await adminClient.close();
  }
  const [row] = await kafkaConsumerGroupsDescribe(id);
  const detail = await t.call('GET', `/api/consumer-groups/${id}`, { token: user });
  assert.equal(detail.status, 200, detail.text);
  const d = detail.body as {
    state: string;
    lag: number;
    partitions: { committedOffset: number; endOffset: number; lag: number }[];
  };
  assert.deepEqual(
    [d.state, d.lag, d.partitions.map((p) => [p.committedOffset, p.endOffset, p.lag])],
    ['Empty', row!.lag, [[row!.currentOffset, row!.logEndOffset, row!.lag]]],
  );
  const list = await t.call('GET', '/api/consumer-groups', { token: user });
  assert.deepEqual(
    (list.body as { id: string }[]).find((g) => g.id === id),
    { id, state: 'Empty', members: 0, lag: 7, topologies: [] },
  );

  // The node samples every second (weir.groups.lag.sample-seconds=1).
  let samples: { lag: number }[] = [];
  for (let i = 0; i < 100 && samples.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const history = await t.call('GET', `/api/consumer-groups/${id}/lag-history`, { token: user });
    samples = (history.body as { samples: { lag: number }[] }).samples;
  }
  assert.deepEqual(
    samples.slice(0, 2).map((s) => s.lag),
    [7, 7],
  );

  const consumer = new Consumer({ ...kafka, groupId: id, maxWaitTime: 200 });
  const stream = await consumer.consume({ topics: [topic], mode: 'committed', autocommit: false });
  try {
    let members = 0;
    for (let i = 0; i < 100 && members === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      members = ((await t.call('GET', `/api/consumer-groups/${id}`, { token: user })).body as { members: number })
        .members;
    }
    const reset = await t.call('POST', `/api/consumer-groups/${id}/reset-offsets`, {
      token: admin,
      body: { to: 'earliest' },
    });
    assert.equal(reset.status, 400);
    assert.match(
      (reset.body as { debugMessage: string }).debugMessage,
      new RegExp(
        `^Unable to reset the offsets of group ${id}: it has 1 active member \\(state \\w+\\); stop its consumers first\\.$`,
      ),
    );
  } finally {
    await stream.close();
    await consumer.close(true);
  }
  const reset = await t.call('POST', `/api/consumer-groups/${id}/reset-offsets`, {
    token: admin,
    body: { to: 'latest' },
  });
  assert.deepEqual([reset.status, reset.body], [200, { id, offsets: [{ topic, partition: 0, offset: 12 }] }]);
  assert.deepEqual(
    (await kafkaConsumerGroupsDescribe(id)).map((r) => [r.currentOffset, r.lag]),
    [[12, 0]],
  );
  const deleted = await t.call('DELETE', `/api/consumer-groups/${id}`, { token: admin });
  assert.equal(deleted.status, 204);
  const gone = await t.call('GET', `/api/consumer-groups/${id}`, { token: user });
  assert.equal(gone.status, 404);
});
