import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Admin, Consumer } from '@platformatic/kafka';
import { BatchRound } from '../../src/stream/batch-round.ts';
import type { ConfigSnapshot } from '../../src/stream/config-snapshot.ts';
import type { FetchedRecord, OutgoingRecord } from '../../src/stream/records.ts';
import { Sink, type SinkWriter } from '../../src/stream/sink/sink.ts';
import type { SinkAdmin } from '../../src/stream/sink/sink-topics.ts';
import { Source } from '../../src/stream/source/source.ts';
import { StageState } from '../../src/stream/state/stage-state.ts';
import { Wakeup } from '../../src/stream/wakeup.ts';
import { WorkerPlan } from '../../src/stream/worker-plan.ts';
import { WorkerStats } from '../../src/stream/worker-stats.ts';
import { FakeConsumer } from './fake-consumer.ts';

const string = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const json = (name: string) => ({ name, keySerde: string, valueSerde: string });

/** Every stage with fakes at its Kafka edge; the writer keeps what it was asked to write. */
function stages(guarantee: 'at_least_once' | 'exactly_once_v2') {
  const stats = new WorkerStats();
  const logs: string[] = [];
  const written: string[] = [];
  const consumer = new FakeConsumer();
  consumer.assignments = [{ topic: 'in', partitions: [0] }];
  const base = {
    connection: { bootstrapBrokers: [] },
    clientId: 'c',
    groupId: 'g',
    guarantee,
    stats,
    worker: 'stream worker 0',
    onLog: (level: string, m: string) => logs.push(`${level} ${m}`),
  };
  let refuse: string | undefined;
  const writer: SinkWriter = {
    open: () => Promise.resolve(),
    close: () => Promise.resolve(),
    produce: (out: OutgoingRecord[]) => (written.push(...out.map((r) => `${r.topic}:${r.value}`)), Promise.resolve()),
    commit: (last) => (
      written.push(...[...last.values()].map((m) => `commit ${m.offset + 1n}`)),
      Promise.resolve(undefined)
    ),
    write: (out, last) => {
      if (refuse) return Promise.reject(Object.assign(new Error('refused'), { apiId: refuse }));
      written.push(
        ...out.map((r) => `${r.topic}:${r.value}`),
        ...[...last.values()].map((m) => `commit ${m.offset + 1n}`),
      );
      return Promise.resolve(undefined);
    },
  };
  const admin = { listTopics: () => Promise.resolve(['in', 'out', 'in-dlq']), close: () => Promise.resolve() };
  const source = new Source(
    {
      ...base,
      openAdmin: () => admin as unknown as Admin,
      openConsumer: () => consumer as unknown as Consumer<Buffer, Buffer, Buffer, Buffer>,
    },
    new Wakeup(),
  );
  const state = new StageState(base);
  const sink = new Sink({
    ...base,
    transactionalId: 't',
    commitIntervalMs: 0,
    maxBatch: 2000,
    openAdmin: () => admin as unknown as SinkAdmin,
    writer,
  });
  const env = { alertsTopic: 'alerts', stats, stagePartitions: new Map<string, number>() };
  const round = new BatchRound({ source, state, sink, env, onWarning: (m) => logs.push(`warn ${m}`) });
  const snapshot: ConfigSnapshot = {
    version: 1,
    topologies: [
      { id: 1, name: 't', pipelines: [1], enabled: true, group: 'default', input: json('in'), output: [json('out')] },
    ],
    pipelines: [{ id: 1, name: 'p', tasks: [1] }],
    tasks: [{ id: 1, name: 'filter', function: 'FILTER', definition: { type: 'pdl', value: 'user="a"' } }],
    rules: [],
  };
  const { plan } = new WorkerPlan({ group: 'default', groupId: 'g', stats }, state.store).compile(snapshot);
  source.plan = plan;
  return {
    round,
    source,
    sink,
    plan,
    consumer,
    written,
    logs,
    stats,
    refuse: (id: string | undefined) => (refuse = id),
  };
}

const record = (offset: number, value: string, timestamp = 1000n) =>
  ({
    topic: 'in',
    partition: 0,
    offset: BigInt(offset),
    key: undefined,
    value: Buffer.from(value),
    timestamp,
  }) as unknown as FetchedRecord;

test("a batch's steps: its oldest record's age when taken, processed and acknowledged, and its process step, one observation each", async () => {
  const s = stages('at_least_once');
  await s.source.subscribe(['in'], () => {});
  const now = Date.now();
  s.consumer.stream.push(record(0, '{"user":"a"}', BigInt(now - 10)));
  s.consumer.stream.push(record(1, '{"user":"a"}', BigInt(now - 50)));
  s.consumer.stream.push(record(2, '{"user":"b"}', BigInt(now + 60_000)));
  await s.round.run(await s.source.nextBatch(), s.plan, new AbortController().signal);
  await s.sink.flush();
  const steps = new Map(s.stats.drain().steps.map(([name, step, values]) => [`${name} ${step}`, values]));
  const [taken, processed, acknowledged] = ['taken', 'processed', 'acknowledged'].map((step) => {
    const values = steps.get(`weir_record_age_seconds ${step}`);
    assert.equal(values?.length, 1, step);
    return values[0]!;
  });
  // the oldest record was written 50 ms before the batch was taken (a timestamp ahead of the clock does not count)
  assert.ok(taken! >= 0.05 && taken! < 5, `taken ${taken}`);
  assert.ok(processed! >= taken! && acknowledged! >= processed!, `${taken} ≤ ${processed} ≤ ${acknowledged}`);
  assert.equal(steps.get('weir_batch_step_seconds process')?.length, 1);
});

test('at_least_once: a fetched batch goes one way to the sink: outputs and dead letters written, then its offsets committed', async () => {
  const s = stages('at_least_once');
  await s.source.subscribe(['in'], () => {});
  s.consumer.stream.push(record(0, '{"user":"a"}'));
  s.consumer.stream.push(record(1, '{"user":"b"}'));
  s.consumer.stream.push(record(2, 'not json'));
  await s.round.run(await s.source.nextBatch(), s.plan, new AbortController().signal);
  await s.sink.flush();
  assert.deepEqual(s.written, ['out:{"user":"a"}', 'in-dlq:not json', 'commit 3']);
  assert.deepEqual(s.logs, ['info stream worker 0: assigned in/0']);
});

test('exactly_once_v2: a transaction aborted by a rebalance puts the batch back; it is processed again, once', async () => {
  const s = stages('exactly_once_v2');
  await s.source.subscribe(['in'], () => {});
  s.consumer.stream.push(record(0, '{"user":"a"}'));
  s.refuse('ILLEGAL_GENERATION');
  await s.round.run(await s.source.nextBatch(), s.plan, new AbortController().signal);
  assert.deepEqual(s.written, []);
  s.refuse(undefined);
  await s.round.run(await s.source.nextBatch(), s.plan, new AbortController().signal);
  assert.deepEqual(s.written, ['out:{"user":"a"}', 'commit 1']);
  assert.ok(
    s.logs.includes(
      'info stream worker 0: transaction aborted, the group rebalanced under it (ILLEGAL_GENERATION); the batch is processed again under the new assignment',
    ),
  );
});

test('a failed transaction throws; the round keeps nothing of it but the clock output, for the next try', async () => {
  const s = stages('exactly_once_v2');
  await s.source.subscribe(['in'], () => {});
  s.consumer.stream.push(record(0, '{"user":"a"}'));
  s.refuse('NOT_COORDINATOR');
  await assert.rejects(s.round.run(await s.source.nextBatch(), s.plan, new AbortController().signal), /refused/);
  await s.round.reset();
  assert.equal(s.round.clockPending, false);
  assert.equal(s.round.tick(s.plan, 1000), false, 'no stage partition to move');
});
