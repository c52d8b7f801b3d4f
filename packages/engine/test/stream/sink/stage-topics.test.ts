import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import { TopicAdmin } from '../../../src/kafka/topic-admin.ts';
import { repartitionRetentionMs, stageTopics } from '../../../src/stream/repartition.ts';
import { ensureStageTopics } from '../../../src/stream/sink/stage-topics.ts';
import type { StageBinding, TopologyPlan } from '../../../src/stream/topology-plan.ts';
import { waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { kcatPartitions } from '@weir/test-helpers/kcat';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

describe('stage topics against the test broker', () => {
  let admin: Admin;
  before(() => {
    admin = new Admin({ clientId: 'weir-test-stage-topics-admin', bootstrapBrokers: testBootstrap().split(',') });
  });
  after(async () => {
    await admin.close();
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
    // the broker's metadata may lag the creation by a moment
    const partitionsOf = (topic: string) =>
      waitFor(`${topic}'s partitions`, async () => (await kcatPartitions(topic)).length || undefined);
    assert.equal(await partitionsOf(topics.repartition), 3);
    assert.equal(await partitionsOf(topics.changelog), 3);
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
