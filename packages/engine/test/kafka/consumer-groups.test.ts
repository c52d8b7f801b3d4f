import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Admin, Consumer, ProduceAcks, Producer } from '@platformatic/kafka';
import { ConsumerGroups, GroupRefusal, groupPartitions } from '../../src/kafka/consumer-groups.ts';
import { createTopics } from '@weir/test-helpers/kafka';
import { kafkaConsumerGroupsDescribe } from '@weir/test-helpers/kafka-tools';
import { kcatOffsetsAt } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/** ConsumerGroups on the shared test broker, offsets and lag checked with kafka-consumer-groups and kcat. */
const connection = () => ({ clientId: 'weir-test-groups', bootstrapBrokers: [testBootstrap()] });
const groups = new ConsumerGroups(connection());
const admin = new Admin(connection());
after(() => Promise.all([groups.close(), admin.close()]));

test("a group's partitions: assigned or committed, by topic then partition; lag 0 without a commit", () => {
  const members = [{ id: 'm1', assignments: [{ topic: 'b', partitions: [1, 0] }] }];
  const committed = new Map([
    ['b', new Map([[0, 4]])],
    ['a', new Map([[2, 10]])],
  ]);
  const of = groupPartitions(members, committed);
  assert.deepEqual(
    [...of.keys].map(([t, ps]) => [t, [...ps].sort()]),
    [
      ['b', [0, 1]],
      ['a', [2]],
    ],
  );
  const ends: Record<string, number> = { 'a:2': 7, 'b:0': 9, 'b:1': 3 };
  assert.deepEqual(
    of.rows((t, p) => ends[`${t}:${p}`]!),
    [
      { topic: 'a', partition: 2, committedOffset: 10, endOffset: 7, lag: 0, member: null },
      { topic: 'b', partition: 0, committedOffset: 4, endOffset: 9, lag: 5, member: 'm1' },
      { topic: 'b', partition: 1, committedOffset: null, endOffset: 3, lag: 0, member: 'm1' },
    ],
  );
});

/** A topic with `counts[p]` records on partition p, written at `base + i` ms. */
async function topicWith(counts: number[], base = Date.now()): Promise<string> {
  const topic = uniqueTopic('groups');
  await createTopics([topic], counts.length);
  const producer = new Producer({ ...connection(), idempotent: true });
  try {
    const messages = counts.flatMap((n, partition) =>
      Array.from({ length: n }, (_, i) => ({
        topic,
        partition,
        value: Buffer.from(`v${i}`),
        timestamp: BigInt(base + i),
      })),
    );
    await producer.send({ messages, acks: ProduceAcks.ALL });
  } finally {
    await producer.close();
  }
  return topic;
}

/** Commits offsets for a group without members (the group is created Empty). */
async function commit(groupId: string, topic: string, offsets: number[]): Promise<void> {
  await admin.alterConsumerGroupOffsets({
    groupId,
    topics: [{ name: topic, partitionOffsets: offsets.map((o, partition) => ({ partition, offset: BigInt(o) })) }],
  });
}

test('list, describe and lags agree with kafka-consumer-groups', async () => {
  const topic = await topicWith([8, 5]);
  const id = `weir-test-lag-${topic}`;
  await commit(id, topic, [3, 5]);
  const tool = await kafkaConsumerGroupsDescribe(id);
  assert.deepEqual(
    tool.map((r) => [r.topic, r.partition, r.currentOffset, r.logEndOffset, r.lag]),
    [
      [topic, 0, 3, 8, 5],
      [topic, 1, 5, 5, 0],
    ],
  );
  const detail = await groups.describe(id);
  assert.deepEqual(
    detail?.partitions.map((p) => [p.topic, p.partition, p.committedOffset, p.endOffset, p.lag, p.member]),
    tool.map((r) => [r.topic, r.partition, r.currentOffset, r.logEndOffset, r.lag, r.consumerId]),
  );
  assert.deepEqual([detail?.state, detail?.members, detail?.lag], ['Empty', 0, 5]);
  const listed = (await groups.list()).find((g) => g.id === id);
  assert.deepEqual(listed, { id, state: 'Empty', members: 0, lag: 5 });
  const [lags] = await groups.lags([id]);
  assert.deepEqual(lags, {
    id,
    partitions: [
      { topic, partition: 0, lag: 5 },
      { topic, partition: 1, lag: 0 },
    ],
  });
  assert.equal(await groups.describe(`${id}-missing`), undefined);
});

test('a group with a member: its partitions owned as kafka-consumer-groups shows; reset and delete refused', async () => {
  const topic = await topicWith([4]);
  const id = `weir-test-active-${topic}`;
  const consumer = new Consumer({ ...connection(), groupId: id, maxWaitTime: 200 });
  const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
  try {
    let detail = await groups.describe(id);
    for (let i = 0; i < 100 && (detail?.state !== 'Stable' || detail.memberDetails[0]?.assignments.length === 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      detail = await groups.describe(id);
    }
    const tool = await kafkaConsumerGroupsDescribe(id);
    assert.deepEqual(
      [detail?.state, detail?.members, detail?.partitions.map((p) => [p.partition, p.member])],
      ['Stable', 1, tool.map((r) => [r.partition, r.consumerId])],
    );
    assert.deepEqual(detail?.memberDetails[0]?.assignments, [{ topic, partitions: [0] }]);
    const refused = `it has 1 active member (state Stable); stop its consumers first.`;
    await assert.rejects(
      groups.resetOffsets(id, { to: 'earliest' }, [topic]),
      new GroupRefusal(`Unable to reset the offsets of group ${id}: ${refused}`),
    );
    await assert.rejects(groups.delete(id), new GroupRefusal(`Unable to delete group ${id}: ${refused}`));
  } finally {
    await stream.close();
    await consumer.close(true);
  }
});

test('reset to earliest, latest, a time and an offset: kafka-consumer-groups sees the new offsets; delete', async () => {
  const base = Date.now() - 60_000;
  const topic = await topicWith([10, 6], base);
  const id = `weir-test-reset-${topic}`;
  await commit(id, topic, [2, 2]);
  // Records before offset 3 of partition 0 deleted: earliest is 3 there.
  await admin.deleteRecords({ topics: [{ name: topic, partitions: [{ partition: 0, offset: 3n }] }] });
  const committed = async () => (await kafkaConsumerGroupsDescribe(id)).map((r) => r.currentOffset);

  const cases: [Parameters<ConsumerGroups['resetOffsets']>[1], number[]][] = [
    [{ to: 'latest' }, [10, 6]],
    [{ to: 'earliest' }, [3, 0]],
    [{ to: 'timestamp', timestamp: base + 4 }, await kcatOffsetsAt(topic, 2, base + 4)],
    [{ to: 'timestamp', timestamp: base + 8 }, [8, 6]],
    [{ to: 'offset', offset: 5 }, [5, 5]],
  ];
  for (const [target, expected] of cases) {
    const answer = await groups.resetOffsets(id, target);
    assert.deepEqual(
      [target, answer, await committed()],
      [target, expected.map((offset, partition) => ({ topic, partition, offset })), expected],
    );
  }
  await assert.rejects(
    groups.resetOffsets(id, { to: 'offset', offset: 7 }),
    new GroupRefusal(`body.offset: 7 is outside partition ${topic}-1, which holds offsets 0 to 6`),
  );
  await assert.rejects(
    groups.resetOffsets(id, { to: 'earliest' }, ['weir-test-no-such-topic']),
    new GroupRefusal('body.topics: topic weir-test-no-such-topic does not exist'),
  );
  assert.equal(await groups.delete(id), true);
  assert.equal(await groups.describe(id), undefined);
  assert.equal(await groups.delete(id), false);
});
