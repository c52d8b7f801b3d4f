import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import { TopicAdmin } from '../../src/kafka/topic-admin.ts';
import { BatchWriter } from '../../src/stream/batch-writer.ts';
import type { OutgoingRecord } from '../../src/stream/records.ts';
import { repartitionRetentionMs, stageTopics } from '../../src/stream/repartition.ts';
import { ensureStageTopics } from '../../src/stream/stage-topics.ts';
import type { StageBinding, TopologyPlan } from '../../src/stream/topology-plan.ts';
import { createTopics } from '../helpers/kafka.ts';
import { kcatPartitions, kcatValues } from '../helpers/kcat.ts';
import { testBootstrap } from '../helpers/test-node.ts';
import { uniqueTopic } from '../helpers/topics.ts';

const record = (topic: string, value: string): OutgoingRecord => ({
  topic,
  partition: 0,
  value: Buffer.from(value),
  timestamp: BigInt(Date.UTC(2023, 0, 1)),
});

describe('BatchWriter and stage topics against the test broker', () => {
  let admin: Admin;
  const known = new Set<string>();
  const logs: string[] = [];
  const writerFor = (guarantee: 'at_least_once' | 'exactly_once_v2') =>
    new BatchWriter(
      {
        connection: { bootstrapBrokers: testBootstrap().split(',') },
        clientId: `weir-test-writer-${guarantee}`,
        guarantee,
        transactionalId: `${uniqueTopic('tx')}-${guarantee}`,
        onLog: (_level, message) => logs.push(message),
      },
      { admin: () => admin, knownTopics: () => known },
    );

  before(() => {
    admin = new Admin({ clientId: 'weir-test-writer-admin', bootstrapBrokers: testBootstrap().split(',') });
  });
  after(async () => {
    await admin.close();
  });

  test('at_least_once: the output reaches a topic it creates when missing (as kcat reads it)', async () => {
    const writer = writerFor('at_least_once');
    const out = uniqueTopic('writer-alos');
    try {
      await writer.open();
      assert.equal(
        await writer.write([record(out, 'a'), record(out, 'b')], new Map(), undefined, undefined),
        undefined,
      );
      assert.deepEqual(await kcatValues(out), ['a', 'b']);
      assert.ok(known.has(out), 'the created topic is known from then on');
      assert.ok(
        logs.some((l) => l.includes(out)),
        'the creation is logged',
      );
    } finally {
      await writer.close();
    }
  });

  test('exactly_once_v2: a batch is one committed transaction (a read_committed reader sees it)', async () => {
    const writer = writerFor('exactly_once_v2');
    const out = uniqueTopic('writer-eos');
    await createTopics([out]);
    try {
      await writer.open();
      await writer.write([record(out, 'x'), record(out, 'y')], new Map(), undefined, undefined);
      await writer.write([record(out, 'z')], new Map(), undefined, undefined);
      assert.deepEqual(await kcatValues(out, true), ['x', 'y', 'z']);
    } finally {
      await writer.close();
    }
  });

  test("ensureStageTopics: repartition and changelog topics with the input's partitions, once", async () => {
    const input = uniqueTopic('stage-in');
    await createTopics([input], 3);
    const topics = stageTopics(uniqueTopic('app'), { id: 1, name: 'logins' }, 2);
    const stage = { topology: { input } as TopologyPlan, taskIndex: 2, topics } as StageBinding;
    const first = await ensureStageTopics(admin, [stage], () => {});
    const again = await ensureStageTopics(admin, [stage], () => {});
    assert.deepEqual(first.repartition, [topics.repartition]);
    assert.deepEqual(again.partitions, new Map([[topics.repartition, 3]]));
    assert.deepEqual([...first.known].sort(), [input, topics.repartition, topics.changelog].sort());
    assert.equal((await kcatPartitions(topics.repartition)).length, 3);
    assert.equal((await kcatPartitions(topics.changelog)).length, 3);
    const described = new TopicAdmin({ clientId: 'weir-test-describe', bootstrapBrokers: testBootstrap().split(',') });
    try {
      const repartition = await described.describe(topics.repartition);
      assert.equal(repartition?.options['retention.ms'], String(repartitionRetentionMs));
      assert.equal(repartition?.options['message.timestamp.type'], 'LogAppendTime');
      assert.equal((await described.describe(topics.changelog))?.options['cleanup.policy'], 'compact');
    } finally {
      await described.close();
    }
  });
});
