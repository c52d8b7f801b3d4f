import { withDeadline } from '../deadline.ts';
import type { FetchedRecord, OutgoingRecord } from '../records.ts';

/** A processed batch waiting for its write: its output and the last processed message per partition. */
export interface PipelinedBatch {
  readonly out: OutgoingRecord[];
  /**
   * The changelog records of the stage state's changes the batch made: written once `out` (of this
   * batch and of those written with it) is acknowledged, never ahead of it (batch-writer.ts).
   */
  readonly changelog: OutgoingRecord[];
  readonly last: ReadonlyMap<string, FetchedRecord>;
  /** The input records it processed (what a crash before its commit makes the worker read again). */
  readonly records: number;
  /** performance.now() when the batch was taken, for weir_batch_processing_seconds. */
  readonly started: number;
  /** performance.now() when the batch was handed to the sink, for weir_batch_step_seconds (write_wait). */
  readonly handedOver?: number;
  /** The Kafka timestamp (ms) of its oldest input record, for weir_record_age_seconds; undefined without records. */
  readonly oldest?: number;
  /** Records the idle clock emitted into this batch: kept for the next try when the write fails. */
  readonly clockOutput: OutgoingRecord[];
}

/** What the pipeline writes and commits with (the worker's BatchWriter under at_least_once). */
export interface PipelineIo {
  /** Writes `out`, then `changelog` once `out` is acknowledged; resolves once both are. */
  produce(out: OutgoingRecord[], changelog: OutgoingRecord[]): Promise<void>;
  /** undefined once committed, else the error by which a rebalance refused the commit. */
  commit(last: ReadonlyMap<string, FetchedRecord>): Promise<string | undefined>;
}

export interface WritePipelineOptions {
  /** commit.interval.ms: 0 commits as soon as a write is acknowledged, N at most every N ms. */
  readonly commitIntervalMs: number;
  /**
   * The most input records one produce carries, and, with commit.interval.ms 0, the most that are
   * written and not committed at any time: what a crash may make the worker write twice (one full batch).
   */
  readonly maxUncommitted: number;
  /** A batch's output is acknowledged; its produce was sent at `sentAt` (performance.now(); for the step histograms). */
  readonly onAcknowledged: (batch: PipelinedBatch, sentAt: number) => void;
  /** A write held back for a commit (the `maxUncommitted` bound) went out after `ms`. */
  readonly onHeld?: (ms: number) => void;
  /** Offsets were committed; the OffsetCommit took `ms`. */
  readonly onCommitted?: (ms: number) => void;
  /** A rebalance refused a commit: the offsets stay and are committed with the next commit or at the join. */
  readonly onCommitRefused: (reason: string) => void;
  /**
   * A write or commit not done after this long fails the pipeline (default 30 s; a batch normally
   * takes milliseconds, and a failing request ends with an error within the client's timeouts): see deadline.ts.
   */
  readonly stepDeadlineMs?: number;
}

/**
 * The at_least_once write path, pipelined, in two lanes:
 * - writes: the batches handed over are written in the order they were processed, one produce at a
 *   time; every batch that waits while a produce is on the broker goes into the next produce
 *   together (their records in order, up to `maxUncommitted` input records), so the worker need
 *   not wait for an acknowledgement to go on processing, and a burst of small batches costs one
 *   request, not one each.
 * - commits: once a write is acknowledged, the offsets of its batches (and of every batch before
 *   them, all acknowledged) are committed beside the writes, one OffsetCommit at a time, not in
 *   front of the next write. With commit.interval.ms 0 (the default) a write is sent while a commit
 *   is under way only if what is then written and not committed stays within `maxUncommitted`
 *   input records (one full batch): after a crash at most that is written twice, as when each
 *   batch was committed before the next was sent. Offsets a rebalance refused are kept for the next
 *   commit and do not hold writes back. commit.interval.ms N commits at most every N ms instead
 *   (fewer OffsetCommit requests, up to N ms of records repeated after a crash).
 * A failed write or commit stops the pipeline: nothing after it is sent or committed, and the worker
 * restarts from the committed offsets. So does a write or commit that hangs past its deadline; what
 * it does when it ends late is ignored.
 */
export class WritePipeline {
  readonly #io: PipelineIo;
  readonly #options: WritePipelineOptions;
  /** Batches handed over and not yet acknowledged (those of the produce under way first). */
  readonly #waiting: PipelinedBatch[] = [];
  /** Their input records. */
  #waitingRecords = 0;
  /** The produce under way and the commit under way, each ending (never rejecting) at its deadline at the latest. */
  #produceStep: Promise<void> | undefined;
  #commitStep: Promise<void> | undefined;
  /** Input records acknowledged and not in a commit yet (not counting those of refused commits), and those of the commit under way. */
  #ackedRecords = 0;
  #committingRecords = 0;
  /** A commit was asked for while one was under way: made once it ends. */
  #commitWanted = false;
  /** Offsets of acknowledged batches not yet committed (refused ones included), per partition. */
  #acked = new Map<string, FetchedRecord>();
  #lastCommit = performance.now();
  #commitTimer: NodeJS.Timeout | undefined;
  #failure: { readonly error: unknown } | undefined;
  /** A reset waits for the steps under way: no step starts. */
  #resetting = false;
  /** Bumped at a reset: a step started before it changes nothing when it ends. */
  #generation = 0;
  /** performance.now() when a write was first held back for a commit (the maxUncommitted bound), until it is sent. */
  #heldSince: number | undefined;
  /** Waiters for any change (an acknowledgement, a commit's end, a failure). */
  #waiters: (() => void)[] = [];

  constructor(io: PipelineIo, options: WritePipelineOptions) {
    this.#io = io;
    this.#options = options;
  }

  /** Batches handed over and not yet written and acknowledged. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Throws the failure of a write or commit, if one happened. */
  throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }

  /** Resolves once at most `maxRecords` input records and `maxBatches` batches wait (or the pipeline failed). */
  async room(maxRecords: number, maxBatches: number): Promise<void> {
    while ((this.#waitingRecords > maxRecords || this.#waiting.length > maxBatches) && !this.#failure)
      await this.#changed();
    this.throwIfFailed();
  }

  /** Hands a processed batch over: written after the batches before it, its offsets committed once acknowledged. */
  write(batch: PipelinedBatch): void {
    this.#waiting.push(batch);
    this.#waitingRecords += batch.records;
    this.#send();
  }

  /**
   * Waits for every batch handed over to be written, then commits what is acknowledged (on a
   * revocation, a replan and a graceful stop). Throws the failure of a write or commit.
   */
  async flush(): Promise<void> {
    while (!this.#failure && (this.#waiting.length > 0 || this.#commitStep)) await this.#changed();
    if (!this.#failure) this.#commit();
    while (!this.#failure && this.#commitStep) await this.#changed();
    this.throwIfFailed();
  }

  /** Commits what is acknowledged, now (after a rebalance refused a commit). */
  commitSoon(): void {
    this.#commit();
  }

  /** Forgets acknowledged offsets of partitions not in `keep` (their next owner repeats at most what they cover). */
  retainOnly(keep: ReadonlySet<string>): void {
    for (const key of [...this.#acked.keys()]) if (!keep.has(key)) this.#acked.delete(key);
  }

  /**
   * After a failure (or before the clients close): waits for the produce and the commit under way
   * to end (or pass their deadline), then forgets every offset and batch. Nothing starts meanwhile:
   * a produce that ends now neither sends the batches behind it nor commits, so once this resolves
   * no request of the pipeline is on the broker and the worker may close its clients (a producer
   * closed under a produce can leave part of it written: a stage's changelog without its alerts).
   * Returns the idle clock's records of the batches that were not acknowledged, for the next try.
   */
  async reset(): Promise<OutgoingRecord[]> {
    this.#resetting = true;
    this.#generation++;
    clearTimeout(this.#commitTimer);
    this.#commitTimer = undefined;
    await Promise.all([this.#produceStep, this.#commitStep]);
    this.#resetting = false;
    const clockOutput = this.#waiting.flatMap((b) => b.clockOutput);
    this.#waiting.length = 0;
    this.#waitingRecords = 0;
    this.#produceStep = this.#commitStep = undefined;
    this.#ackedRecords = this.#committingRecords = 0;
    this.#commitWanted = false;
    this.#heldSince = undefined;
    this.#acked = new Map();
    this.#failure = undefined;
    this.#lastCommit = performance.now();
    this.#notify();
    return clockOutput;
  }

  /**
   * Sends the waiting batches in one produce (as many as fit in `maxUncommitted` input records, at
   * least one), unless a produce is under way or, with commit.interval.ms 0, the write would take
   * what is written and not committed beyond `maxUncommitted` (it is sent when the commit ends).
   */
  #send(): void {
    if (this.#failure || this.#resetting || this.#produceStep || this.#waiting.length === 0) return;
    const max = this.#options.maxUncommitted;
    let count = 0;
    let records = 0;
    for (const batch of this.#waiting) {
      if (count > 0 && records + batch.records > max) break;
      count++;
      records += batch.records;
    }
    const uncommitted = this.#ackedRecords + this.#committingRecords;
    if (this.#options.commitIntervalMs <= 0 && uncommitted > 0 && uncommitted + records > max) {
      this.#heldSince ??= performance.now();
      return;
    }
    if (this.#heldSince !== undefined) {
      this.#options.onHeld?.(performance.now() - this.#heldSince);
      this.#heldSince = undefined;
    }
    const batches = this.#waiting.slice(0, count);
    const out = count === 1 ? batches[0]!.out : batches.flatMap((b) => b.out);
    const changelog = count === 1 ? batches[0]!.changelog : batches.flatMap((b) => b.changelog);
    const sentAt = performance.now();
    this.#produceStep = this.#step(this.#io.produce(out, changelog), () => {
      this.#produceStep = undefined;
      this.#waiting.splice(0, count);
      this.#waitingRecords -= records;
      this.#ackedRecords += records;
      for (const batch of batches) {
        for (const [key, m] of batch.last) this.#acked.set(key, m);
        this.#options.onAcknowledged(batch, sentAt);
      }
      const interval = this.#options.commitIntervalMs;
      if (interval <= 0 || performance.now() - this.#lastCommit >= interval) this.#commit();
      else this.#commitLater(interval);
      this.#send();
    });
  }

  /** Commits what is acknowledged; while a commit is under way, once it ends. */
  #commit(): void {
    if (this.#failure || this.#resetting) return;
    if (this.#commitStep) {
      this.#commitWanted = true;
      return;
    }
    clearTimeout(this.#commitTimer);
    this.#commitTimer = undefined;
    this.#commitWanted = false;
    this.#lastCommit = performance.now();
    if (this.#acked.size === 0) {
      this.#ackedRecords = 0;
      return;
    }
    const offsets = this.#acked;
    this.#acked = new Map();
    this.#committingRecords = this.#ackedRecords;
    this.#ackedRecords = 0;
    const sentAt = performance.now();
    this.#commitStep = this.#step(this.#io.commit(offsets), (refusal) => {
      this.#commitStep = undefined;
      // refused: no longer counted, as before pipelining a refused commit did not hold the next batch back
      this.#committingRecords = 0;
      if (refusal === undefined) this.#options.onCommitted?.(performance.now() - sentAt);
      else {
        // kept for the next commit (newer offsets of the same partition, acknowledged meanwhile, win)
        for (const [key, m] of offsets) if (!this.#acked.has(key)) this.#acked.set(key, m);
        this.#options.onCommitRefused(refusal);
      }
      if (this.#commitWanted) this.#commit();
      this.#send();
    });
  }

  /**
   * Runs `then` once `work` succeeds, unless a reset came meanwhile. A failure, or `work` not done
   * within its deadline, fails the pipeline. The promise returned never rejects; it ends at the
   * deadline at the latest.
   */
  async #step<T>(work: Promise<T>, then: (value: T) => void): Promise<void> {
    const generation = this.#generation;
    try {
      const value = await withDeadline(
        work,
        this.#options.stepDeadlineMs ?? 30_000,
        'writing a batch and committing its offsets',
      );
      if (generation === this.#generation && !this.#failure) then(value);
    } catch (error) {
      if (generation === this.#generation) this.#failure ??= { error };
    }
    this.#notify();
  }

  /** Under an interval, acknowledged offsets are committed when it is up even if no batch follows. */
  #commitLater(interval: number): void {
    if (this.#commitTimer) return;
    const wait = Math.max(0, interval - (performance.now() - this.#lastCommit));
    this.#commitTimer = setTimeout(() => {
      this.#commitTimer = undefined;
      this.#commit();
    }, wait);
  }

  #changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
