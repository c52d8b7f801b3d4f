import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import { brokerErrorId, brokerReason } from '../../src/kafka/broker-errors.ts';
import { DetailRefusal, TopicDetails } from '../../src/kafka/topic-details.ts';
import { createTopics } from '@weir/test-helpers/kafka';
import { kafkaConfigsDescribe } from '@weir/test-helpers/kafka-tools';
import { kcatEndOffsets, kcatOffsetsAt, kcatPartitions } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

/** TopicDetails on the shared test broker, every figure checked with kcat or Kafka's own tools. */
const details = new TopicDetails({ clientId: 'weir-test-details', bootstrapBrokers: [testBootstrap()] });
after(() => details.close());

/** Writes `counts[p]` records to each partition p, the i-th with timestamp `base + i`. */
async function write(topic: string, counts: number[], base = Date.now()): Promise<void> {
  const producer = new Producer({
    clientId: 'weir-test-details-producer',
    bootstrapBrokers: [testBootstrap()],
    idempotent: true,
  });
  try {
    const messages = counts.flatMap((n, partition) =>
      Array.from({ length: n }, (_, i) => ({
        topic,
        partition,
        value: Buffer.from(`p${partition}-${i}`),
        timestamp: BigInt(base + i),
      })),
    );
    await producer.send({ messages, acks: ProduceAcks.ALL });
  } finally {
    await producer.close();
  }
}

test('partitions: leader, replicas, in-sync replicas and offsets as kcat sees them; counts and sizes', async () => {
  const topic = uniqueTopic('depth');
  await createTopics([topic], 3);
  await write(topic, [5, 2, 0]);
  const found = await details.partitions(topic);
  assert.ok(found);
  const [meta, high, low] = await Promise.all([
    kcatPartitions(topic),
    kcatEndOffsets(topic, 3),
    kcatOffsetsAt(topic, 3, -2),
  ]);
  assert.deepEqual(
    found.partitions.map(({ partition, leader, replicas, inSyncReplicas, lowOffset, highOffset, messages }) => ({
      partition,
      leader,
      replicas,
      inSyncReplicas,
      lowOffset,
      highOffset,
      messages,
    })),
    meta.map((m) => ({
      partition: m.partition,
      leader: m.leader,
      replicas: m.replicas,
      inSyncReplicas: m.isrs,
      lowOffset: low[m.partition],
      highOffset: high[m.partition],
      messages: high[m.partition]! - low[m.partition]!,
    })),
  );
  assert.deepEqual([found.name, found.messages], [topic, 7]);
  const sizes = found.partitions.map((p) => p.sizeBytes);
  assert.ok(sizes[0]! > sizes[1]! && sizes[1]! > 0 && sizes[2] === 0, `sizes ${sizes.join(', ')}`);
  assert.equal(found.sizeBytes, sizes[0]! + sizes[1]!);
  assert.equal(await details.partitions(uniqueTopic('missing')), undefined);
});

test('settings: a change is what kafka-configs shows; changed ones marked; reset back to the default', async () => {
  const topic = uniqueTopic('settings');
  await createTopics([topic]);
  await details.changeSettings(topic, {
    set: { 'retention.bytes': '1048576', 'cleanup.policy': 'compact' },
    reset: [],
  });
  await details.changeSettings(topic, { set: {}, reset: ['retention.ms'] });
  assert.deepEqual(await kafkaConfigsDescribe(topic), { 'cleanup.policy': 'compact', 'retention.bytes': '1048576' });
  const settings = (await details.settings(topic))!;
  assert.deepEqual(
    settings.filter((s) => s.changed).map((s) => [s.name, s.value, s.source]),
    [
      ['cleanup.policy', 'compact', 'DYNAMIC_TOPIC_CONFIG'],
      ['retention.bytes', '1048576', 'DYNAMIC_TOPIC_CONFIG'],
    ],
  );
  assert.deepEqual(
    settings.find((s) => s.name === 'retention.ms'),
    {
      name: 'retention.ms',
      value: '604800000',
      source: 'DEFAULT_CONFIG',
      changed: false,
      readOnly: false,
      sensitive: false,
    },
  );
  await assert.rejects(details.changeSettings(topic, { set: { 'no.such.setting': '1' }, reset: [] }), (err) => {
    assert.deepEqual(
      [brokerErrorId(err), brokerReason(err)],
      ['INVALID_CONFIG', 'Unknown topic config name: no.such.setting'],
    );
    return true;
  });
});

test('add partitions: kcat sees the new partitions, each with a leader', async () => {
  const topic = uniqueTopic('grow');
  await createTopics([topic], 1);
  await details.addPartitions(topic, 4);
  const meta = await kcatPartitions(topic);
  assert.deepEqual(
    meta.map((p) => [p.partition, p.leader >= 0]),
    [
      [0, true],
      [1, true],
      [2, true],
      [3, true],
    ],
  );
  assert.equal((await details.partitions(topic))!.partitions.length, 4);
});

test('purge up to offsets and before a time: kcat sees the new log start offsets', async () => {
  const topic = uniqueTopic('purge');
  await createTopics([topic], 2);
  const base = Date.now() - 60_000;
  await write(topic, [10, 6], base);
  const lows = await details.purge(topic, { kind: 'offsets', offsets: new Map([[0, 4]]) });
  assert.deepEqual([...lows], [[0, 4]]);
  assert.deepEqual(await kcatOffsetsAt(topic, 2, -2), [4, 0]);

  // Timestamps base+0 … base+9 on partition 0 and base+0 … base+5 on partition 1: before base+7.
  const byTime = await details.purge(topic, { kind: 'before', timestamp: base + 7 });
  assert.deepEqual(
    [...byTime].sort(([a], [b]) => a - b),
    [
      [0, 7],
      [1, 6],
    ],
  );
  assert.deepEqual(await kcatOffsetsAt(topic, 2, -2), [7, 6]);
  assert.deepEqual(await kcatEndOffsets(topic, 2), [10, 6]);

  await assert.rejects(
    details.purge(topic, { kind: 'offsets', offsets: new Map([[0, 11]]) }),
    new DetailRefusal('body.offsets.0: 11 is beyond the end of partition 0 (high offset 10)'),
  );
  await assert.rejects(
    details.purge(topic, { kind: 'offsets', offsets: new Map([[5, 0]]) }),
    new DetailRefusal(`body.offsets.5: topic ${topic} has no partition 5 (it has 2)`),
  );
});
