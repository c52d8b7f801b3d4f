import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Admin, Consumer } from '@platformatic/kafka';
import type { ConfigSnapshot } from '../../src/stream/config-snapshot.ts';
import type { FetchedRecord, OutgoingRecord } from '../../src/stream/records.ts';
import type { SinkWriter } from '../../src/stream/sink/sink.ts';
import { StreamWorker } from '../../src/stream/stream-worker.ts';
import type { WorkerState } from '../../src/stream/worker-states.ts';
import { FakeConsumer } from './fake-consumer.ts';

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });

const snapshot: ConfigSnapshot = {
  version: 1,
  topologies: [
    { id: 1, name: 't', pipelines: [1], enabled: true, group: 'default', input: json('in'), output: [json('out')] },
  ],
  pipelines: [{ id: 1, name: 'p', tasks: [1] }],
  tasks: [{ id: 1, name: 'filter', function: 'FILTER', definition: { type: 'pdl', value: 'user="a"' } }],
  rules: [],
};

const record = (offset: number, value: string) =>
  ({
    topic: 'in',
    partition: 0,
    offset: BigInt(offset),
    key: undefined,
    value: Buffer.from(value),
    timestamp: 1000n,
  }) as unknown as FetchedRecord;

/** A worker whose stages have fakes at their Kafka edge. */
function worker() {
  const states: WorkerState[] = [];
  const logs: string[] = [];
  const written: string[] = [];
  const consumers: FakeConsumer[] = [];
  const calls: string[] = [];
  let failProduce: Error | undefined;
  const writer: SinkWriter = {
    open: () => (calls.push('open'), Promise.resolve()),
    close: () => (calls.push('close'), Promise.resolve()),
    produce: (out: OutgoingRecord[]) => {
      const err = failProduce;
      failProduce = undefined;
      if (err) return Promise.reject(err);
      written.push(...out.map((r) => `${r.topic}:${r.value}`));
      return Promise.resolve();
    },
    commit: (last) => (
      written.push(...[...last.values()].map((m) => `commit ${m.offset + 1n}`)),
      Promise.resolve(undefined)
    ),
    write: () => Promise.reject(new Error('not under at_least_once')),
  };
  const admin = { listTopics: () => Promise.resolve(['in', 'out']), close: () => Promise.resolve() };
  const w = new StreamWorker({
    index: 0,
    connection: { bootstrapBrokers: [] },
    clientId: 'c',
    groupId: 'g',
    group: 'default',
    guarantee: 'at_least_once',
    transactionalId: 't',
    alertsTopic: 'alerts',
    onState: (s) => states.push(s),
    onLog: (level, m) => logs.push(`${level} ${m}`),
    openAdmin: () => admin as unknown as Admin,
    openConsumer: () => {
      const c = new FakeConsumer();
      c.assignOnConsume = true;
      c.lag = new Map([['in', [3n]]]);
      consumers.push(c);
      return c as unknown as Consumer<Buffer, Buffer, Buffer, Buffer>;
    },
    writer,
  });
  return { worker: w, states, logs, written, consumers, calls, failNext: (err: Error) => (failProduce = err) };
}

async function until(what: string, condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a worker runs its plan: records fetched are written and their offsets committed; a stop closes everything', async () => {
  const w = worker();
  w.worker.configure(snapshot);
  w.worker.start();
  await until('the consumer', () => w.consumers.length === 1);
  await until('RUNNING', () => w.worker.state === 'RUNNING');
  w.consumers[0]!.stream.push(record(0, '{"user":"a"}'));
  w.consumers[0]!.stream.push(record(1, '{"user":"b"}'));
  await until('the write', () => w.written.includes('commit 2'));
  assert.deepEqual(w.written, ['out:{"user":"a"}', 'commit 2']);
  await w.worker.measureLag();
  assert.deepEqual(w.worker.stats.drain().lag, [['in', 0, 3]]);
  await w.worker.stop();
  assert.deepEqual(w.states, ['REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
  assert.equal(w.consumers[0]!.closed, true);
  assert.deepEqual(w.calls, ['open', 'close']);
  assert.deepEqual(w.logs, ['info stream worker 0: assigned in/0']);
});

test('a failed write restarts the worker from the committed offsets, with a new consumer, and says so', async () => {
  const w = worker();
  w.worker.configure(snapshot);
  w.worker.start();
  await until('RUNNING', () => w.worker.state === 'RUNNING');
  w.failNext(new Error('NOT_LEADER_OR_FOLLOWER'));
  w.consumers[0]!.stream.push(record(0, '{"user":"a"}'));
  await until('the restart', () => w.consumers.length === 2 && w.worker.state === 'RUNNING');
  assert.equal(w.consumers[0]!.closed, true);
  assert.ok(
    w.logs.includes('warn stream worker 0: NOT_LEADER_OR_FOLLOWER; restarting from the committed offsets in 500 ms'),
    w.logs.join('\n'),
  );
  // read again from the committed offsets by the new consumer: written this time
  w.consumers[1]!.stream.push(record(0, '{"user":"a"}'));
  await until('the write', () => w.written.includes('commit 1'));
  await w.worker.stop();
  assert.deepEqual(w.states, ['REBALANCING', 'RUNNING', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
});

test('a topology that cannot run is said at configure; its records go to the dead-letter topic', async () => {
  const w = worker();
  w.worker.configure({ ...snapshot, pipelines: [] });
  assert.match(w.logs[0] ?? '', /^warn topology t cannot run: .*; its records go to in-dlq$/);
  w.worker.start();
  await until('RUNNING', () => w.worker.state === 'RUNNING');
  w.consumers[0]!.stream.push(record(0, '{"user":"a"}'));
  await until('the write', () => w.written.includes('commit 1'));
  assert.deepEqual(w.written, ['in-dlq:{"user":"a"}', 'commit 1']);
  await w.worker.stop();
});
