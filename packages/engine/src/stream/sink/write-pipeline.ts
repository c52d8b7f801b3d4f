import { withDeadline } from '../deadline.ts';
import type { FetchedRecord, OutgoingRecord } from '../records.ts';

/** A processed batch waiting for its write: its output and the last processed message per partition. */
export interface PipelinedBatch {
  readonly out: OutgoingRecord[];
  readonly last: ReadonlyMap<string, FetchedRecord>;
  /** performance.now() when the batch was taken, for weir_batch_processing_seconds. */
  readonly started: number;
  /** Records the idle clock emitted into this batch: kept for the next try when the write fails. */
  readonly clockOutput: OutgoingRecord[];
}

/** What the pipeline writes and commits with (the worker's BatchWriter under at_least_once). */
export interface PipelineIo {
  produce(out: OutgoingRecord[]): Promise<void>;
  /** undefined once committed, else the error by which a rebalance refused the commit. */
  commit(last: ReadonlyMap<string, FetchedRecord>): Promise<string | undefined>;
}

export interface WritePipelineOptions {
  /** commit.interval.ms: 0 commits after every acknowledged batch, N at most every N ms. */
  readonly commitIntervalMs: number;
  /** A batch's output is acknowledged (for the batch-time histogram). */
  readonly onAcknowledged: (batch: PipelinedBatch) => void;
  /** A rebalance refused a commit: the offsets stay and are committed with the next commit or at the join. */
  readonly onCommitRefused: (reason: string) => void;
  /**
   * A write or commit not done after this long fails the pipeline (default 30 s; a batch normally
   * takes milliseconds, and a failing request ends with an error within the client's timeouts): see deadline.ts.
   */
  readonly stepDeadlineMs?: number;
}

/**
 * The at_least_once write path, pipelined: the worker processes the next batch while the previous
 * one is written. Batches are written one after another in the order they were processed (one
 * produce at a time: at most one batch of output is on the broker and not yet acknowledged), and
 * each batch's offsets are committed only once its output and the output of every batch before it
 * are acknowledged, in order. With commit.interval.ms 0 (the default) the offsets are committed
 * after every acknowledged batch, before the next batch is sent: after a crash at most one batch
 * per worker is written twice, as without pipelining. Larger intervals commit less often (fewer
 * OffsetCommit requests, more repeated after a crash). A failed write stops the pipeline: nothing
 * after it is sent or committed, and the worker restarts from the committed offsets. So does a write
 * or commit that hangs past its deadline; what it does when it ends late is ignored.
 */
export class WritePipeline {
  readonly #io: PipelineIo;
  readonly #options: WritePipelineOptions;
  /** The chain of writes and commits; each step catches its own failure into #failure. */
  #chain: Promise<void> = Promise.resolve();
  /** Batches handed over and not yet through the chain (being written or waiting). */
  readonly #waiting: PipelinedBatch[] = [];
  /** Offsets of acknowledged batches not yet committed (refused ones included), per partition. */
  #acked = new Map<string, FetchedRecord>();
  #lastCommit = performance.now();
  #commitTimer: NodeJS.Timeout | undefined;
  #failure: { readonly error: unknown } | undefined;
  #progress: (() => void) | undefined;

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

  /** Resolves once at most `max` batches wait (or the pipeline failed). */
  async room(max: number): Promise<void> {
    while (this.#waiting.length > max && !this.#failure) {
      await new Promise<void>((resolve) => (this.#progress = resolve));
    }
    this.throwIfFailed();
  }

  /** Hands a processed batch over: written after the batches before it, its offsets committed once acknowledged. */
  write(batch: PipelinedBatch): void {
    this.#waiting.push(batch);
    this.#then(async (current) => {
      await this.#io.produce(batch.out);
      if (!current()) return;
      this.#waiting.shift();
      for (const [key, m] of batch.last) this.#acked.set(key, m);
      this.#options.onAcknowledged(batch);
      const interval = this.#options.commitIntervalMs;
      if (interval <= 0 || performance.now() - this.#lastCommit >= interval) await this.#commit(current);
      else this.#commitLater(interval);
    });
  }

  /**
   * Waits for every batch handed over to be written, then commits what is acknowledged (on a
   * revocation, a replan and a graceful stop). Throws the failure of a write or commit.
   */
  async flush(): Promise<void> {
    this.#then((current) => this.#commit(current));
    await this.#chain;
    this.throwIfFailed();
  }

  /** Commits what is acknowledged once the writes before it are done (after a rebalance refused a commit). */
  commitSoon(): void {
    this.#then((current) => this.#commit(current));
  }

  /** Forgets acknowledged offsets of partitions not in `keep` (their next owner repeats at most what they cover). */
  retainOnly(keep: ReadonlySet<string>): void {
    for (const key of [...this.#acked.keys()]) if (!keep.has(key)) this.#acked.delete(key);
  }

  /**
   * After a failure (or before the clients close): waits for the chain to stop, then forgets every
   * offset and batch. Returns the idle clock's records of the batches that were not acknowledged,
   * for the next try.
   */
  async reset(): Promise<OutgoingRecord[]> {
    await this.#chain;
    clearTimeout(this.#commitTimer);
    this.#commitTimer = undefined;
    const clockOutput = this.#waiting.flatMap((b) => b.clockOutput);
    this.#waiting.length = 0;
    this.#acked = new Map();
    this.#failure = undefined;
    this.#lastCommit = performance.now();
    return clockOutput;
  }

  /**
   * Chains a step; `current()` tells it, after each wait, whether it may still change the pipeline:
   * false once the step failed or passed its deadline (its chain link has ended, so a reset may follow).
   */
  #then(step: (current: () => boolean) => Promise<void>): void {
    this.#chain = this.#chain.then(async () => {
      if (this.#failure) return;
      let abandoned = false;
      const current = () => !abandoned;
      try {
        await withDeadline(
          step(current),
          this.#options.stepDeadlineMs ?? 30_000,
          'writing a batch and committing its offsets',
        );
      } catch (error) {
        abandoned = true;
        this.#failure = { error };
      }
      const progress = this.#progress;
      this.#progress = undefined;
      progress?.();
    });
  }

  async #commit(current: () => boolean): Promise<void> {
    clearTimeout(this.#commitTimer);
    this.#commitTimer = undefined;
    this.#lastCommit = performance.now();
    if (this.#acked.size === 0) return;
    const offsets = this.#acked;
    this.#acked = new Map();
    const refusal = await this.#io.commit(offsets);
    if (refusal === undefined || !current()) return;
    // kept for the next commit (newer offsets of the same partition, acknowledged meanwhile, win)
    for (const [key, m] of offsets) if (!this.#acked.has(key)) this.#acked.set(key, m);
    this.#options.onCommitRefused(refusal);
  }

  /** Under an interval, acknowledged offsets are committed when it is up even if no batch follows. */
  #commitLater(interval: number): void {
    if (this.#commitTimer) return;
    const wait = Math.max(0, interval - (performance.now() - this.#lastCommit));
    this.#commitTimer = setTimeout(() => {
      this.#commitTimer = undefined;
      this.#then((current) => this.#commit(current));
    }, wait);
  }
}
