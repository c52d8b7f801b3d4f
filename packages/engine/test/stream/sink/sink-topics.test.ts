import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repartitionRetentionMs, stageTopics } from '../../../src/stream/repartition.ts';
import type { OutgoingRecord } from '../../../src/stream/records.ts';
import { SinkTopics, type SinkAdmin } from '../../../src/stream/sink/sink-topics.ts';
import type { StageBinding, TopologyPlan } from '../../../src/stream/topology-plan.ts';

interface Created {
  topics: string[];
  partitions: number;
  configs?: { name: string; value: string }[];
}

/** An admin client over an in-memory list of topics (name → partitions). */
function fakeAdmin(existing: Record<string, number>) {
  const calls = { listTopics: 0, created: [] as Created[], closed: 0 };
  const topics = new Map(Object.entries(existing));
  const admin = {
    listTopics: () => {
      calls.listTopics++;
      return Promise.resolve([...topics.keys()]);
    },
    createTopics: (o: Created) => {
      calls.created.push({ topics: o.topics, partitions: o.partitions, configs: o.configs });
      for (const t of o.topics) topics.set(t, o.partitions);
      return Promise.resolve([]);
    },
    metadata: (o: { topics: string[] }) =>
      Promise.resolve({
        brokers: new Map([[1, {}]]),
        topics: new Map(o.topics.filter((t) => topics.has(t)).map((t) => [t, { partitionsCount: topics.get(t) }])),
      }),
    close: () => {
      calls.closed++;
      return Promise.resolve();
    },
  };
  return { admin: admin as unknown as SinkAdmin, calls };
}

const record = (topic: string): OutgoingRecord => ({ topic, value: Buffer.from('v') });

test('output and dead-letter topics missing are created once, with one partition; known ones are not looked up again', async () => {
  const { admin, calls } = fakeAdmin({ out: 1 });
  const logs: string[] = [];
  const topics = new SinkTopics(
    () => admin,
    (m) => logs.push(m),
  );
  await topics.ensure([record('out'), record('in-dlq'), record('in-dlq')]);
  await topics.ensure([record('out'), record('in-dlq')]);
  assert.deepEqual(calls.created, [{ topics: ['in-dlq'], partitions: 1, configs: undefined }]);
  assert.equal(calls.listTopics, 1);
  assert.deepEqual(logs, ['created topic(s) in-dlq']);
});

test("stage topics: repartition and changelog created with the input's partitions; then known to the writer", async () => {
  const { admin, calls } = fakeAdmin({ in: 3 });
  const logs: string[] = [];
  const topics = new SinkTopics(
    () => admin,
    (m) => logs.push(m),
  );
  const names = stageTopics('app', { id: 1, name: 'logins' }, 2);
  const stage = { topology: { input: 'in' } as TopologyPlan, taskIndex: 2, topics: names } as StageBinding;
  assert.deepEqual(await topics.ensureStages([]), { repartition: [], partitions: new Map() });
  const ensured = await topics.ensureStages([stage]);
  assert.deepEqual(ensured, { repartition: [names.repartition], partitions: new Map([[names.repartition, 3]]) });
  assert.deepEqual(calls.created, [
    {
      topics: [names.repartition],
      partitions: 3,
      configs: [
        { name: 'retention.ms', value: String(repartitionRetentionMs) },
        { name: 'message.timestamp.type', value: 'LogAppendTime' },
      ],
    },
    { topics: [names.changelog], partitions: 3, configs: [{ name: 'cleanup.policy', value: 'compact' }] },
  ]);
  assert.deepEqual(logs, [
    `created topic ${names.repartition} (3 partitions)`,
    `created topic ${names.changelog} (3 partitions)`,
  ]);
  const listed = calls.listTopics;
  await topics.ensure([record(names.changelog), record(names.repartition)]);
  assert.equal(calls.listTopics, listed, 'the stage topics are known');
});

test('close closes the admin client it opened and forgets what exists', async () => {
  const { admin, calls } = fakeAdmin({ out: 1 });
  let opened = 0;
  const topics = new SinkTopics(
    () => (opened++, admin),
    () => {},
  );
  await topics.close();
  assert.equal(opened, 0, 'no client opened before it is needed');
  await topics.ensure([record('out')]);
  await topics.close();
  assert.equal(calls.closed, 1);
  await topics.ensure([record('out')]);
  assert.deepEqual([opened, calls.listTopics], [2, 2]);
});
