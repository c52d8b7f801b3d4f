import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Admin, Consumer } from '@platformatic/kafka';
import { metricNames } from '../../../src/stream/metric-names.ts';
import type { FetchedRecord } from '../../../src/stream/records.ts';
import { Source } from '../../../src/stream/source/source.ts';
import type { StreamPlan, TopologyPlan } from '../../../src/stream/topology-plan.ts';
import { Wakeup } from '../../../src/stream/wakeup.ts';
import { WorkerStats } from '../../../src/stream/worker-stats.ts';
import { FakeConsumer } from '../fake-consumer.ts';

const plan = (inputs: string[]): StreamPlan => ({
  version: 1,
  byInput: new Map(inputs.map((t, i) => [t, [{ id: i + 1, name: `t${i + 1}` } as TopologyPlan]])),
  inputTopics: inputs,
  outputTopics: [],
  stages: new Map(),
});

const record = (partition: number, offset: number, timestamp = Date.now()): FetchedRecord =>
  ({ topic: 'in', partition, offset: BigInt(offset), timestamp: BigInt(timestamp) }) as FetchedRecord;

function source(topics: string[]) {
  const logs: string[] = [];
  const consumers: FakeConsumer[] = [];
  const stats = new WorkerStats();
  const listed: number[] = [];
  const wakeup = new Wakeup();
  const joined: (() => void)[] = [];
  const admin = {
    listTopics: () => (listed.push(1), Promise.resolve(topics)),
    close: () => Promise.resolve(),
  } as unknown as Admin;
  const s = new Source(
    {
      connection: { bootstrapBrokers: [] },
      clientId: 'c',
      groupId: 'g',
      guarantee: 'at_least_once',
      maxBatch: 3,
      stats,
      worker: 'stream worker 1',
      onLog: (level, m) => logs.push(`${level} ${m}`),
      onJoin: () => joined.forEach((f) => f()),
      openAdmin: () => admin,
      openConsumer: () => {
        const c = new FakeConsumer();
        consumers.push(c);
        return c as unknown as Consumer<Buffer, Buffer, Buffer, Buffer>;
      },
    },
    wakeup,
  );
  return { source: s, logs, consumers, stats, listed, wakeup, joined };
}

test('missing input topics are said once per change and looked for again; existing ones are read', async () => {
  const { source: s, logs, listed } = source(['a']);
  s.plan = plan(['a', 'b']);
  assert.deepEqual(await s.existingInputs(), ['a']);
  assert.deepEqual(await s.existingInputs(), ['a']);
  assert.deepEqual(logs, ['warn input topic(s) b do not exist yet; waiting for them']);
  assert.equal(s.inputsMissing(), true);
  assert.deepEqual(listed, [1, 1]);
  s.plan = plan(['a']);
  await s.existingInputs();
  assert.equal(s.inputsMissing(), false);
  assert.deepEqual(await s.existingInputs(), ['a']);
  assert.equal(listed.length, 3, 'known topics are not listed again');
});

test('fetched records come in fair batches of maxBatch; the group metadata is the consumer’s', async () => {
  const { source: s, consumers } = source(['in']);
  s.plan = plan(['in']);
  await s.subscribe(['in'], () => {});
  assert.ok(s.subscribedTo(['in']));
  assert.equal(s.subscribedTo(['in', 'other']), false);
  const c = consumers[0]!;
  assert.deepEqual(c.subscribed, ['in']);
  for (let i = 0; i < 4; i++) c.stream.push(record(0, i));
  c.stream.push(record(1, 0));
  const batch = await s.nextBatch();
  assert.deepEqual(
    batch.map((r) => `${r.partition}/${r.offset}`),
    ['0/0', '1/0', '0/1'],
  );
  assert.deepEqual(s.groupMetadata(), { groupId: 'g', memberId: 'm1', generationId: 3, coordinatorId: 1 });
  s.putBack(batch);
  assert.equal((await s.nextBatch())[0]?.offset, 0n, 'records put back come first');
});

test('no record for a second: an empty batch; a wake ends the wait at once', async () => {
  const { source: s, wakeup } = source(['in']);
  await s.subscribe(['in'], () => {});
  let started = performance.now();
  assert.deepEqual(await s.nextBatch(), []);
  assert.ok(performance.now() - started >= 900);
  started = performance.now();
  const waiting = s.nextBatch();
  wakeup.wake();
  assert.deepEqual(await waiting, []);
  assert.ok(performance.now() - started < 500);
});

test('a closed stream fails the next batch (the worker restarts from the committed offsets)', async () => {
  const { source: s, consumers } = source(['in']);
  await s.subscribe(['in'], () => {});
  await consumers[0]!.stream.close();
  await assert.rejects(s.nextBatch(), /the consumer stream closed/);
});

test("the consumer's own error fails the next batch even while records arrive (the member no longer heartbeats)", async () => {
  const { source: s, consumers } = source(['in']);
  await s.subscribe(['in'], () => {});
  const c = consumers[0]!;
  c.emit('error', new Error('Connection closed'));
  c.stream.push(record(0, 0));
  await assert.rejects(s.nextBatch(), /^Error: the consumer failed: Connection closed$/);
});

test('a rebalance notice holds batches until the join; the join is told', async () => {
  const { source: s, consumers, joined } = source(['in']);
  let joins = 0;
  joined.push(() => joins++);
  await s.subscribe(['in'], () => {});
  const c = consumers[0]!;
  c.emit('consumer:group:rebalance');
  assert.equal(s.rebalancing, true);
  s.checkRebalance();
  c.emit('consumer:group:join');
  assert.equal(s.rebalancing, false);
  assert.equal(joins, 1);
});

test('an assignment change is taken in: said, and fetched records of partitions moved away are left', async () => {
  const { source: s, consumers, logs } = source(['in']);
  await s.subscribe(['in'], () => {});
  const c = consumers[0]!;
  c.assignments = [{ topic: 'in', partitions: [0, 1] }];
  const first = s.assignmentChange()!;
  s.adopt(first);
  assert.equal(s.assignmentChange(), undefined);
  c.stream.push(record(0, 0));
  c.stream.push(record(1, 0));
  const batch = await s.nextBatch();
  s.putBack(batch);
  c.assignments = [{ topic: 'in', partitions: [1] }];
  s.adopt(s.assignmentChange()!);
  assert.deepEqual(logs, [
    'info stream worker 1: assigned in/0, in/1',
    'info stream worker 1: assigned in/1',
    'info stream worker 1: 1 fetched record(s) of partitions moved to another worker are left to it',
  ]);
  assert.deepEqual(
    s.admit(await s.nextBatch()).records.map((r) => r.partition),
    [1],
  );
});

test('records of gained partitions below the offsets committed by their previous owner are skipped', async () => {
  const { source: s, consumers } = source(['in']);
  await s.subscribe(['in'], () => {});
  const c = consumers[0]!;
  c.committed = new Map([['in', [5n]]]);
  await s.settle(['in\u00000'], new AbortController().signal);
  assert.deepEqual(
    s.admit([record(0, 4), record(0, 5)]).records.map((r) => r.offset),
    [5n],
  );
});

test('admitted input records are weighed against retention; an aborted batch is put back as it was', async () => {
  const { source: s, consumers, stats } = source(['in']);
  s.plan = plan(['in']);
  await s.subscribe(['in'], () => {});
  const batch = [record(0, 0), record(0, 1)];
  const admitted = s.admit(batch);
  assert.equal(admitted.records.length, 2);
  s.rollBack(batch, admitted.before, 'ILLEGAL_GENERATION');
  consumers[0]!.stream.push(record(0, 2));
  assert.deepEqual(
    s.admit(await s.nextBatch()).records.map((r) => r.offset),
    [0n, 1n, 2n],
  );
  assert.deepEqual(stats.drain().counters, [], `no record is near retention here (${metricNames.nearRetention})`);
});

test('closing leaves the group and forgets what was fetched', async () => {
  const { source: s, consumers } = source(['in']);
  await s.subscribe(['in'], () => {});
  consumers[0]!.stream.push(record(0, 0));
  await s.close();
  assert.equal(consumers[0]!.closed, true);
  assert.equal(s.subscribed, false);
  assert.equal(s.consumer, undefined);
});

test('a set-up given up during the join does not keep the stream', async () => {
  const { source: s } = source(['in']);
  let given = false;
  const joining = s.subscribe(['in'], () => {
    if (given) throw new Error('joining the consumer group: given up');
  });
  given = true;
  await assert.rejects(joining, /given up/);
  assert.equal(s.subscribed, false);
});
