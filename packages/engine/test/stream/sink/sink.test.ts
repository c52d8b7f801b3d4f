import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FetchedRecord, GroupMetadata, OutgoingRecord } from '../../../src/stream/records.ts';
import { Sink, type SinkBatch, type SinkWriter } from '../../../src/stream/sink/sink.ts';
import type { SinkAdmin } from '../../../src/stream/sink/sink-topics.ts';
import { WorkerStats } from '../../../src/stream/worker-stats.ts';

/** A writer that records what it is asked; `fail` makes the next write throw it. */
function fakeWriter() {
  const calls: string[] = [];
  let fail: unknown;
  const writer: SinkWriter & { calls: string[]; failNext(err: unknown): void } = {
    calls,
    failNext: (err) => (fail = err),
    open: () => (calls.push('open'), Promise.resolve()),
    close: () => (calls.push('close'), Promise.resolve()),
    produce: (out, changelog = []) => {
      calls.push(
        `produce ${out.map((r) => r.topic).join(',')}${changelog.length ? ` then ${changelog.map((r) => r.topic).join(',')}` : ''}`,
      );
      return Promise.resolve();
    },
    commit: (last) => {
      calls.push(`commit ${[...last.values()].map((m) => m.offset).join(',')}`);
      return Promise.resolve(undefined);
    },
    write: (out, _last, group) => {
      calls.push(`transaction ${out.map((r) => r.topic).join(',')} @${group?.generationId}`);
      const err = fail;
      fail = undefined;
      return err ? Promise.reject(err) : Promise.resolve(undefined);
    },
  };
  return writer;
}

const noAdmin = () => ({ close: () => Promise.resolve() }) as unknown as SinkAdmin;
const group: GroupMetadata = { groupId: 'g', memberId: 'm', generationId: 7, coordinatorId: 1 };
const batch = (topic: string, offset: number, clock: OutgoingRecord[] = [], changelog: string[] = []): SinkBatch => ({
  out: [{ topic, value: Buffer.from('v') }, ...clock],
  changelog: changelog.map((t) => ({ topic: t, value: Buffer.from('state') })),
  last: new Map([[`in\u00000`, { topic: 'in', partition: 0, offset: BigInt(offset) } as FetchedRecord]]),
  records: 1,
  started: performance.now(),
  handedOver: performance.now(),
  oldest: Date.now() - 40,
  clockOutput: clock,
});

/** The steps a report observed: `metric step` → observations. */
const stepsOf = (report: ReturnType<WorkerStats['drain']>) =>
  Object.fromEntries(report.steps.map(([name, step, values]) => [`${name} ${step}`, values]));

function sink(guarantee: 'at_least_once' | 'exactly_once_v2') {
  const writer = fakeWriter();
  const stats = new WorkerStats();
  const logs: string[] = [];
  const s = new Sink({
    connection: { bootstrapBrokers: [] },
    clientId: 'c',
    guarantee,
    transactionalId: 't',
    commitIntervalMs: 0,
    maxBatch: 2000,
    stats,
    worker: 'stream worker 3',
    onLog: (level, m) => logs.push(`${level} ${m}`),
    openAdmin: noAdmin,
    writer,
  });
  return { sink: s, writer, stats, logs };
}

test('at_least_once: a batch is handed over at once, then written and its offsets committed, in order', async () => {
  const { sink: s, writer, stats } = sink('at_least_once');
  await s.open();
  assert.equal(await s.write(batch('out', 4), group, undefined), undefined);
  assert.equal(await s.write(batch('out2', 9, [], ['state-changelog']), group, undefined), undefined);
  await s.room();
  await s.flush();
  // a batch's changelog records are written after its outputs
  assert.deepEqual(writer.calls, ['open', 'produce out', 'commit 4', 'produce out2 then state-changelog', 'commit 9']);
  const report = stats.drain();
  assert.equal(report.latencies.length, 2);
  assert.deepEqual(report.counters, [['weir_offset_commits_total', [], 2]]);
  // one observation per batch of each step it went through, and per commit
  const steps = stepsOf(report);
  assert.deepEqual(Object.keys(steps).sort(), [
    'weir_batch_step_seconds commit',
    'weir_batch_step_seconds produce',
    'weir_batch_step_seconds write_wait',
    'weir_record_age_seconds acknowledged',
  ]);
  for (const values of Object.values(steps)) assert.equal(values.length, 2);
  // the oldest record was appended 40 ms before the batch was handed over
  for (const age of steps['weir_record_age_seconds acknowledged']!) assert.ok(age >= 0.04 && age < 5, `age ${age}`);
  assert.deepEqual(stepsOf(stats.drain()), {}, 'the next report starts over');
});

test('exactly_once_v2: one transaction per batch under the generation it ran under', async () => {
  const { sink: s, writer, stats } = sink('exactly_once_v2');
  assert.equal(await s.write(batch('out', 1, [], ['state-changelog']), group, undefined), undefined);
  assert.deepEqual(writer.calls, ['transaction out,state-changelog @7']);
  const report = stats.drain();
  assert.equal(report.latencies.length, 1);
  assert.deepEqual(report.counters, [['weir_offset_commits_total', [], 1]]);
  // the transaction is the produce step; its commit is part of it
  assert.deepEqual(Object.keys(stepsOf(report)).sort(), [
    'weir_batch_step_seconds produce',
    'weir_batch_step_seconds write_wait',
    'weir_record_age_seconds acknowledged',
  ]);
});

test('exactly_once_v2: a transaction the group refused after a rebalance is reported, not thrown', async () => {
  const { sink: s, writer } = sink('exactly_once_v2');
  writer.failNext(Object.assign(new Error('refused'), { apiId: 'ILLEGAL_GENERATION' }));
  assert.equal(await s.write(batch('out', 1), group, undefined), 'ILLEGAL_GENERATION');
});

test("exactly_once_v2: a failed transaction throws; the clock's records of its batch are handed back for the next try", async () => {
  const { sink: s, writer } = sink('exactly_once_v2');
  const closed: OutgoingRecord = { topic: 'out', value: Buffer.from('window closed') };
  writer.failNext(new Error('broker gone'));
  await assert.rejects(s.write(batch('out', 1, [closed]), group, undefined), /broker gone/);
  assert.deepEqual(await s.reset(), [closed]);
  assert.deepEqual(await s.reset(), []);
});

test('at_least_once: a failed write fails the next look; reset hands back the clock records not written', async () => {
  const { sink: s, writer } = sink('at_least_once');
  writer.produce = () => Promise.reject(new Error('not leader'));
  const closed: OutgoingRecord = { topic: 'out', value: Buffer.from('window closed') };
  await s.write(batch('out', 1, [closed]), group, undefined);
  await assert.rejects(s.flush(), /not leader/);
  assert.deepEqual(await s.reset(), [closed]);
});

test('close closes the producer and the admin client', async () => {
  const { sink: s, writer } = sink('at_least_once');
  await s.close();
  assert.deepEqual(writer.calls, ['close']);
});

test('a commit a rebalance refused is said and made again with the next commit', async () => {
  const { sink: s, writer, logs } = sink('at_least_once');
  let refuse = true;
  writer.commit = (last) => {
    writer.calls.push(`commit ${[...last.values()].map((m) => m.offset).join(',')}`);
    const refusal = refuse ? 'REBALANCE_IN_PROGRESS' : undefined;
    refuse = false;
    return Promise.resolve(refusal);
  };
  await s.write(batch('out', 4), group, undefined);
  await s.flush();
  s.commitSoon();
  await s.flush();
  assert.deepEqual(logs, ['info stream worker 3: commit deferred by a rebalance (REBALANCE_IN_PROGRESS)']);
  assert.deepEqual(writer.calls, ['produce out', 'commit 4', 'commit 4']);
});
