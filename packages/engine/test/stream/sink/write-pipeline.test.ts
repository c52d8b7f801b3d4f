import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FetchedRecord as BufferMessage, OutgoingRecord } from '../../../src/stream/records.ts';
import { type PipelinedBatch, type PipelineIo, WritePipeline } from '../../../src/stream/sink/write-pipeline.ts';

/**
 * The at_least_once write pipeline's order of writes and commits. The io records what it is asked
 * and lets the test decide when each produce is acknowledged, so every interleaving is reproducible;
 * the pipeline against the real broker is covered by the engine's integration and fault tests.
 */
class ScriptedIo implements PipelineIo {
  readonly log: string[] = [];
  readonly #pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  refuseNextCommit: string | undefined;

  produce(out: OutgoingRecord[], changelog: OutgoingRecord[]): Promise<void> {
    const then = changelog.length > 0 ? ` then ${changelog.map((r) => String(r.value)).join(',')}` : '';
    this.log.push(`produce ${out.map((r) => String(r.value)).join(',')}${then}`);
    return new Promise((resolve, reject) => this.#pending.push({ resolve, reject }));
  }

  /** When set, each commit waits for `commitDone()` (else it answers at once). */
  holdCommits = false;
  readonly #commits: (() => void)[] = [];

  commit(last: ReadonlyMap<string, BufferMessage>): Promise<string | undefined> {
    const refusal = this.refuseNextCommit;
    this.refuseNextCommit = undefined;
    const offsets = [...last].map(([key, m]) => `${key}@${m.offset}`).join(',');
    this.log.push(`${refusal ? 'refused' : 'commit'} ${offsets}`);
    if (!this.holdCommits) return Promise.resolve(refusal);
    return new Promise((resolve) => this.#commits.push(() => resolve(refusal)));
  }

  /** Ends the oldest commit held back and lets the pipeline run on. */
  async commitDone(): Promise<void> {
    const next = this.#commits.shift();
    assert.ok(next, 'no commit is waiting');
    next();
    await settle();
  }

  get inFlight(): number {
    return this.#pending.length;
  }

  /** Acknowledges the oldest produce (or fails it) and lets the pipeline's chain run on. */
  async ack(error?: Error): Promise<void> {
    const next = this.#pending.shift();
    assert.ok(next, 'no produce is waiting for its acknowledgement');
    if (error) next.reject(error);
    else next.resolve();
    await settle();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const batch = (partition: string, offset: number, value = `${partition}${offset}`): PipelinedBatch => ({
  out: [{ topic: 'out', partition: 0, value: Buffer.from(value), timestamp: 0n }],
  changelog: [],
  last: new Map([[partition, { offset: BigInt(offset) } as BufferMessage]]),
  records: 1,
  started: 0,
  clockOutput: [],
});

function pipeline(io: ScriptedIo, commitIntervalMs = 0, stepDeadlineMs?: number, maxUncommitted = 100) {
  const acknowledged: string[] = [];
  const refused: string[] = [];
  const held: number[] = [];
  const p = new WritePipeline(io, {
    commitIntervalMs,
    maxUncommitted,
    stepDeadlineMs,
    onAcknowledged: (b) => acknowledged.push(String(b.out[0]?.value)),
    onHeld: (ms) => held.push(ms),
    onCommitRefused: (reason) => refused.push(reason),
  });
  return { p, acknowledged, refused, held };
}

describe('WritePipeline (at_least_once, pipelined)', () => {
  test('one produce at a time, in order; the batches that wait meanwhile go out together; each write is committed once acknowledged', async () => {
    const io = new ScriptedIo();
    const { p, acknowledged } = pipeline(io);
    p.write(batch('a', 1));
    p.write(batch('a', 2));
    p.write(batch('b', 7));
    await settle();
    assert.deepEqual(io.log, ['produce a1'], 'the other batches wait for the first acknowledgement');
    assert.equal(p.waiting, 3);
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2,b7']);
    assert.equal(p.waiting, 2);
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2,b7', 'commit a@2,b@7']);
    assert.deepEqual(acknowledged, ['a1', 'a2', 'b7']);
    assert.equal(p.waiting, 0);
  });

  test('each batch acknowledged is told when its produce was sent (those written together: the same time); each commit, how long it took', async () => {
    const io = new ScriptedIo();
    io.holdCommits = true;
    const sent: [string, number][] = [];
    const commits: number[] = [];
    const p = new WritePipeline(io, {
      commitIntervalMs: 0,
      maxUncommitted: 100,
      onAcknowledged: (b, sentAt) => sent.push([String(b.out[0]?.value), sentAt]),
      onCommitted: (ms) => commits.push(ms),
      onCommitRefused: () => {},
    });
    const first = performance.now();
    p.write(batch('a', 1));
    p.write(batch('a', 2));
    p.write(batch('a', 3));
    await sleep(20);
    const acknowledged = performance.now();
    await io.ack();
    await sleep(20);
    await io.commitDone();
    await io.ack();
    await io.commitDone();
    assert.deepEqual(
      sent.map(([v]) => v),
      ['a1', 'a2', 'a3'],
    );
    const [a1, a2, a3] = sent.map(([, at]) => at);
    assert.ok(a1! >= first && a1! < acknowledged, 'a1 sent at once');
    assert.ok(a2! >= acknowledged, 'a2 waited for the produce of a1');
    assert.equal(a3, a2, 'a2 and a3 in one produce');
    assert.equal(commits.length, 2);
    assert.ok(commits[0]! >= 19, `the first commit was held 20 ms (${commits[0]} ms)`);
  });

  test("batches written together: every batch's outputs first, then their changelog records (a state never ahead of its outputs)", async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io);
    const state = (value: string): OutgoingRecord => ({
      topic: 'changelog',
      partition: 0,
      value: Buffer.from(value),
      timestamp: 0n,
    });
    p.write(batch('a', 1));
    await settle();
    p.write({ ...batch('a', 2), changelog: [state('s2')] });
    p.write({ ...batch('a', 3), changelog: [state('s3')] });
    await io.ack();
    await io.ack();
    await p.flush();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2,a3 then s2,s3', 'commit a@3']);
  });

  test('a commit under way does not hold the next write back, unless written and not committed would pass maxUncommitted records', async () => {
    const io = new ScriptedIo();
    io.holdCommits = true;
    const { p, held } = pipeline(io, 0, undefined, 2);
    p.write(batch('a', 1));
    await settle();
    p.write(batch('a', 2));
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2'], 'a2 is sent while a@1 is committed');
    assert.deepEqual(held, [], 'not held');
    p.write(batch('a', 3));
    await io.ack();
    assert.deepEqual(
      io.log,
      ['produce a1', 'commit a@1', 'produce a2'],
      'a3 waits: a1 (being committed) and a2 (acknowledged) are the 2 records that may be written and not committed',
    );
    await sleep(10);
    await io.commitDone();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2', 'commit a@2', 'produce a3']);
    assert.equal(held.length, 1, 'a3 was held back for the commit, once');
    assert.ok(held[0]! >= 9, `for as long as the commit took (${held[0]} ms)`);
    let flushed = false;
    const flush = p.flush().then(() => (flushed = true));
    await io.ack();
    await io.commitDone();
    assert.equal(flushed, false, 'flush waits for the last commit');
    await io.commitDone();
    await flush;
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2', 'commit a@2', 'produce a3', 'commit a@3']);
  });

  test('one produce carries at most maxUncommitted input records of the batches that wait', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io, 0, undefined, 2);
    for (let offset = 1; offset <= 4; offset++) p.write(batch('a', offset));
    await settle();
    await io.ack();
    await io.ack();
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'commit a@1', 'produce a2,a3', 'commit a@3', 'produce a4', 'commit a@4']);
  });

  test('room() holds the worker back while more than the allowed records or batches wait', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io);
    p.write(batch('a', 1));
    p.write(batch('a', 2));
    let roomy = false;
    const room = p.room(1, 10).then(() => (roomy = true));
    await settle();
    assert.equal(roomy, false);
    await io.ack();
    await room;
    assert.equal(roomy, true);
    assert.equal(p.waiting, 1);
    // records of clock-only batches are 0: the count of batches bounds them
    p.write({ ...batch('b', 1), records: 0 });
    p.write({ ...batch('b', 2), records: 0 });
    let batchesRoomy = false;
    const byBatches = p.room(10, 2).then(() => (batchesRoomy = true));
    await settle();
    assert.equal(batchesRoomy, false, '3 batches wait, 2 allowed');
    await io.ack();
    await byBatches;
  });

  test('a failed write stops the pipeline: nothing after it is sent or committed, and the failure is thrown', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io);
    p.write(batch('a', 1));
    p.write(batch('a', 2));
    const clockRecord: OutgoingRecord = { topic: 'alerts', partition: 0, value: Buffer.from('closed'), timestamp: 0n };
    p.write({ ...batch('a', 3), clockOutput: [clockRecord] });
    await settle();
    await io.ack(new Error('broker gone'));
    assert.deepEqual(io.log, ['produce a1']);
    assert.throws(() => p.throwIfFailed(), /broker gone/);
    await assert.rejects(p.room(0, 0), /broker gone/);
    await assert.rejects(p.flush(), /broker gone/);
    assert.deepEqual(io.log, ['produce a1'], 'no commit after the failure');
    // The idle clock's records of the batches never acknowledged are handed back for the next try.
    assert.deepEqual(await p.reset(), [clockRecord]);
    assert.equal(p.waiting, 0);
    p.throwIfFailed();
  });

  test('a reset after a failure elsewhere (the consumer lost) waits for the write under way and sends nothing more: no client closes under a produce', async () => {
    const io = new ScriptedIo();
    io.holdCommits = true;
    const { p, acknowledged } = pipeline(io);
    p.write(batch('a', 1));
    await settle();
    p.write(batch('a', 2));
    // the worker's loop failed (not the pipeline): it resets, then closes the producer and the consumer
    let reset = false;
    const resetting = p.reset().then((clock) => ((reset = true), clock));
    await settle();
    assert.equal(reset, false, 'the produce under way is waited for');
    await io.ack();
    assert.deepEqual(await resetting, []);
    // once reset resolves, nothing is on the broker: the waiting batch was not sent, no commit started
    assert.equal(io.inFlight, 0, 'no produce under way when the clients close');
    assert.deepEqual(io.log, ['produce a1']);
    assert.deepEqual(acknowledged, [], 'nothing acknowledged after the reset began');
    assert.equal(p.waiting, 0);
  });

  test('with commit.interval.ms, acknowledged offsets are committed together when the interval is up, even with no later batch', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io, 150);
    p.write(batch('a', 1));
    p.write(batch('b', 4));
    await settle();
    await io.ack();
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'produce b4'], 'nothing committed before the interval');
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.deepEqual(io.log, ['produce a1', 'produce b4', 'commit a@1,b@4']);
  });

  test('flush() waits for every write, then commits what is acknowledged', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io, 60_000);
    p.write(batch('a', 1));
    p.write(batch('a', 2));
    let flushed = false;
    const flush = p.flush().then(() => (flushed = true));
    await settle();
    await io.ack();
    assert.equal(flushed, false);
    await io.ack();
    await flush;
    assert.deepEqual(io.log, ['produce a1', 'produce a2', 'commit a@2']);
  });

  test('a commit refused by a rebalance keeps its offsets for the next commit; newer offsets of a partition win', async () => {
    const io = new ScriptedIo();
    const { p, refused } = pipeline(io);
    io.refuseNextCommit = 'REBALANCE_IN_PROGRESS';
    p.write(batch('a', 1));
    p.write(batch('b', 3));
    await settle();
    await io.ack();
    assert.deepEqual(refused, ['REBALANCE_IN_PROGRESS']);
    p.write(batch('c', 9));
    await io.ack();
    assert.deepEqual(io.log, ['produce a1', 'refused a@1', 'produce b3', 'commit a@1,b@3', 'produce c9']);
    p.write(batch('a', 2));
    await io.ack();
    await io.ack();
    assert.deepEqual(io.log, [
      'produce a1',
      'refused a@1',
      'produce b3',
      'commit a@1,b@3',
      'produce c9',
      'commit c@9',
      'produce a2',
      'commit a@2',
    ]);
  });

  test('retainOnly forgets the acknowledged offsets of partitions given up', async () => {
    const io = new ScriptedIo();
    const { p } = pipeline(io, 60_000);
    p.write(batch('a', 1));
    p.write(batch('b', 5));
    await settle();
    await io.ack();
    await io.ack();
    p.retainOnly(new Set(['b']));
    await p.flush();
    assert.deepEqual(io.log, ['produce a1', 'produce b5', 'commit b@5']);
  });

  test('a write that hangs past its deadline fails the pipeline; when it ends late, after the reset, it changes nothing', async () => {
    const io = new ScriptedIo();
    const { p, acknowledged } = pipeline(io, 0, 50);
    p.write(batch('a', 1));
    await assert.rejects(p.flush(), /writing a batch and committing its offsets did not finish within 50 ms/);
    assert.deepEqual(await p.reset(), []);
    assert.equal(p.waiting, 0);
    // the broker answers the abandoned produce after all: no acknowledgement, no commit
    await io.ack();
    assert.deepEqual(acknowledged, []);
    assert.deepEqual(io.log, ['produce a1']);
    // the pipeline works again after the reset
    p.write(batch('a', 2));
    await settle();
    await io.ack();
    await p.flush();
    assert.deepEqual(io.log, ['produce a1', 'produce a2', 'commit a@2']);
    assert.deepEqual(acknowledged, ['a2']);
  });
});
