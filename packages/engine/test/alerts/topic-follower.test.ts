import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TopicFollower } from '../../src/alerts/topic-follower.ts';
import type { TopicRecord } from '../../src/alerts/alert-index.ts';
import { createTopics, produce } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { waitFor } from '@weir/test-helpers/engine';

/** A follower on the test broker that keeps its positions in a Map, as the alert index keeps them in SQLite. */
function follow(topic: string, positions: Map<number, number>, got: TopicRecord[]) {
  const follower = new TopicFollower({
    connection: { clientId: 'weir-test-follower', groupId: 'weir-test-follower', bootstrapBrokers: [testBootstrap()] },
    topic,
    positions: () => new Map(positions),
    apply: (records, next) => {
      got.push(...records);
      for (const [p, o] of next) positions.set(p, o);
    },
    onError: () => {},
  });
  follower.start();
  return follower;
}

test('TopicFollower: every record of every partition once, resumed from the positions it was given', async () => {
  const topic = uniqueTopic('follower');
  await createTopics([topic], 3);
  await produce(
    topic,
    Array.from({ length: 30 }, (_, i) => `r${i}`),
    (i) => `k${i}`,
  );
  const positions = new Map<number, number>();
  const got: TopicRecord[] = [];
  const first = follow(topic, positions, got);
  await waitFor('30 records', async () => got.length >= 30);
  await first.close();
  assert.deepEqual(got.map((r) => r.value!.toString()).sort(), Array.from({ length: 30 }, (_, i) => `r${i}`).sort());
  assert.equal(
    [...positions.values()].reduce((a, b) => a + b, 0),
    30,
  );

  await produce(topic, ['later']);
  const more: TopicRecord[] = [];
  const second = follow(topic, positions, more);
  await waitFor('the later record', async () => more.length >= 1);
  await new Promise((r) => setTimeout(r, 500));
  await second.close();
  assert.deepEqual(
    more.map((r) => r.value!.toString()),
    ['later'],
  );
});

test('TopicFollower: asynchronous applies, two under way at most; a rejected one is read again from the stored positions', async () => {
  const topic = uniqueTopic('follower-async');
  await createTopics([topic], 1);
  await produce(topic, ['r0', 'r1']);
  const positions = new Map<number, number>();
  const got: string[] = [];
  const errors: string[] = [];
  let calls = 0;
  let underWay = 0;
  let most = 0;
  const follower = new TopicFollower({
    connection: { clientId: 'weir-test-follower', groupId: 'weir-test-follower', bootstrapBrokers: [testBootstrap()] },
    topic,
    positions: () => new Map(positions),
    apply: async (records, next) => {
      underWay++;
      most = Math.max(most, underWay);
      await new Promise((r) => setTimeout(r, 300));
      underWay--;
      if (calls++ === 0) throw new Error('disk full');
      got.push(...records.map((r) => r.value!.toString()));
      for (const [p, o] of next) positions.set(p, o);
    },
    onError: (err) => errors.push(err.message),
  });
  follower.start();
  await waitFor('the first records, after the failure', async () => got.length >= 2);
  // records arriving faster than they are applied: the fetches go on, the applies queue two deep
  for (let i = 2; i < 8; i++) {
    await produce(topic, [`r${i}`]);
    await new Promise((r) => setTimeout(r, 80));
  }
  await waitFor('every record', async () => got.length >= 8);
  await follower.close();
  assert.deepEqual(got, ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
  assert.deepEqual(errors, [`reading ${topic} failed: disk full`]);
  assert.equal(most, 2);
  assert.deepEqual([...positions], [[0, 8]]);
});
