/** weir.stream.batch-target-ms's default (config/settings.ts). */
export const defaultBatchTargetMs = 5;
/** Weight of the latest batch in the measured processing time per record (an exponential average). */
const decay = 0.8;
/**
 * How many times a batch may double while records keep waiting behind it: 2^3 = 8 times the
 * target's size (40 ms of processing at the default 5 ms), enough that a batch's fixed costs are
 * lost in its records' (about 0.1 ms a batch against 5 ms of records), short enough that a burst
 * does not give the records behind it the latency of a 2,000-record batch.
 */
const maxGrowth = 3;

/**
 * How many records the next batch takes (weir.stream.batch-target-ms): batches follow the load.
 * While the worker keeps up, a batch holds what came since the last one, at most as many records as
 * the process stage handles in `targetMs` (measured: time per record, an exponential average over
 * the recent batches), so a record that arrives waits at most about `targetMs` behind the batch in
 * front of it, and one that arrives on an idle partition is processed at once. When more records
 * wait than a batch takes (a backlog: a start, a burst, a slow moment), the size doubles at every
 * batch, up to 8 times the target's size and at most `maxBatch`, for throughput; once a batch takes all that waits it is back to the target.
 * `targetMs` 0: every batch takes up to `maxBatch` (the most throughput, the latency of a full batch).
 */
export class BatchSizer {
  readonly #maxBatch: number;
  readonly #targetMs: number;
  /** Decayed sums of processing time and records: their ratio is the time per record. */
  #ms = 0;
  #records = 0;
  #growth = 0;

  constructor(maxBatch: number, targetMs: number) {
    this.#maxBatch = Math.max(1, Math.floor(maxBatch));
    this.#targetMs = Math.max(0, targetMs);
  }

  /** The most records the next batch takes, `queued` records waiting; remembers whether they were more. */
  next(queued: number): number {
    const size = Math.min(this.#maxBatch, this.#base() * 2 ** this.#growth);
    this.#growth = queued > size ? Math.min(maxGrowth, this.#growth + 1) : 0;
    return size;
  }

  /** A batch of `records` took `ms` through the process stage. */
  processed(records: number, ms: number): void {
    if (records <= 0 || !(ms >= 0)) return;
    this.#ms = this.#ms * decay + ms;
    this.#records = this.#records * decay + records;
  }

  /** Records processed in the target time (the whole `maxBatch` before anything was measured, or without a target). */
  #base(): number {
    if (this.#targetMs === 0 || this.#records === 0) return this.#maxBatch;
    const perRecord = this.#ms / this.#records;
    if (perRecord <= 0) return this.#maxBatch;
    return Math.max(1, Math.min(this.#maxBatch, Math.floor(this.#targetMs / perRecord)));
  }
}
