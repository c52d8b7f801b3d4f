import { Admin, type Consumer } from '@platformatic/kafka';
import { brokerErrorId } from '../../kafka/broker-errors.ts';
import { closeWithin, withDeadline } from '../deadline.ts';
import { ageSeconds, defaultMaxBatch, type GroupMetadata, type OutgoingRecord } from '../records.ts';
import type { StageBinding } from '../topology-plan.ts';
import { metricNames } from '../metric-names.ts';
import type { WorkerStats } from '../worker-stats.ts';
import { BatchWriter, rebalanceErrors, type BatchWriterOptions } from './batch-writer.ts';
import { SinkTopics, type SinkAdmin } from './sink-topics.ts';
import { WritePipeline, type PipelinedBatch } from './write-pipeline.ts';

/**
 * One exactly_once_v2 batch transaction. Measured: with the group's coordinator killed, a
 * transaction's call into the client never returned (broker-loss fault test); this deadline ended it.
 */
const transactionDeadlineMs = 30_000;

/** at_least_once: the most batches processed and not yet acknowledged before the worker's loop waits (see `room`). */
const maxUnacknowledgedBatches = 64;

export interface SinkOptions extends BatchWriterOptions {
  /** commit.interval.ms (at_least_once). */
  readonly commitIntervalMs: number;
  /** The most records of a batch (at_least_once: the most written and not committed, see write-pipeline.ts). */
  readonly maxBatch?: number;
  readonly stats: WorkerStats;
  /** How its log lines name the worker (`stream worker 2`). */
  readonly worker: string;
  readonly onLog: (level: 'info' | 'warn', message: string) => void;
  /** The sink's own admin client (a fake in unit tests). */
  readonly openAdmin?: () => SinkAdmin;
  /** The batch writer (a fake in unit tests). */
  readonly writer?: SinkWriter;
}

/** What the sink writes with: the producer's side of a BatchWriter. */
export type SinkWriter = Pick<BatchWriter, 'open' | 'close' | 'write' | 'produce' | 'commit'>;

/** A processed batch to write: its records, the last processed record per partition, what the clock added. */
export type SinkBatch = PipelinedBatch;

/**
 * The sink stage: writes a processed batch and commits its offsets. at_least_once: handed to the
 * write pipeline (written in order while the next batch is processed, offsets committed once
 * acknowledged); exactly_once_v2: one transaction per batch, awaited. Owns the producer, its own
 * admin client and the one "ensure topics exist" (sink-topics.ts).
 */
export class Sink {
  readonly #options: SinkOptions;
  readonly topics: SinkTopics;
  readonly #writer: SinkWriter;
  readonly #pipeline: WritePipeline;
  /** exactly_once_v2: the clock output of a batch whose transaction failed, for the next try. */
  #unwritten: OutgoingRecord[] = [];

  constructor(options: SinkOptions) {
    this.#options = options;
    const log = (message: string) => options.onLog('info', message);
    this.topics = new SinkTopics(
      options.openAdmin ?? (() => new Admin({ ...options.connection, clientId: `${options.clientId}-admin` })),
      log,
    );
    this.#writer = options.writer ?? new BatchWriter(options, this.topics);
    this.#pipeline = new WritePipeline(this.#writer, {
      commitIntervalMs: options.commitIntervalMs,
      maxUncommitted: options.maxBatch ?? defaultMaxBatch,
      onAcknowledged: (batch, sentAt) => this.#acknowledged(batch, sentAt),
      onHeld: (ms) => options.stats.observe(metricNames.batchStep, 'commit_wait', ms / 1000),
      onCommitted: (ms) => {
        options.stats.add(metricNames.offsetCommits, []);
        options.stats.observe(metricNames.batchStep, 'commit', ms / 1000);
      },
      // The output is written; the offsets are committed with the next commit (at the join at the
      // latest), else the partition's next owner repeats what they cover.
      onCommitRefused: (reason) => log(`${options.worker}: commit deferred by a rebalance (${reason})`),
    });
  }

  /** Opens the producer (exactly_once_v2: fences this transactional id's previous incarnation). */
  open(): Promise<void> {
    return this.#writer.open();
  }

  /** Creates the stage topics when missing; the repartition topics to consume and their partition counts. */
  ensureStageTopics(stages: readonly StageBinding[]) {
    return this.topics.ensureStages(stages);
  }

  /**
   * at_least_once: resolves once at most one full batch of input records (maxBatch) waits for its
   * write, so the worker goes on fetching and processing while a produce is on the broker (what
   * waits meanwhile goes out together, write-pipeline.ts), however small its batches, and what
   * they hold stays bounded, as when one batch was written while the next was processed. Throws a write's failure.
   */
  room(): Promise<void> {
    if (this.#options.guarantee !== 'at_least_once') return Promise.resolve();
    return this.#pipeline.room(this.#options.maxBatch ?? defaultMaxBatch, maxUnacknowledgedBatches);
  }

  /**
   * Writes a batch. at_least_once: handed over, written after the batches before it (a failure is
   * thrown by a later `room` or `flush`). exactly_once_v2: in one transaction with its offsets,
   * under the generation `group` it ran under; resolves to the error by which the group refused
   * it when it rebalanced meanwhile (the transaction is aborted: nothing of the batch is visible).
   */
  async write(
    batch: SinkBatch,
    group: GroupMetadata | undefined,
    consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined,
  ): Promise<string | undefined> {
    if (this.#options.guarantee === 'at_least_once') {
      this.#pipeline.write(batch);
      return undefined;
    }
    const sentAt = performance.now();
    try {
      await withDeadline(
        // one transaction: its changelog records are visible with its outputs or not at all
        this.#writer.write(
          batch.changelog.length > 0 ? batch.out.concat(batch.changelog) : batch.out,
          batch.last,
          group,
          consumer,
        ),
        transactionDeadlineMs,
        'writing a batch in its transaction',
      );
    } catch (err) {
      const refusal = brokerErrorId(err);
      if (refusal !== undefined && rebalanceErrors.has(refusal)) return refusal;
      // kept for the next try; consumed records are read again from the committed offsets
      this.#unwritten = batch.clockOutput.concat(this.#unwritten);
      throw err;
    }
    this.#acknowledged(batch, sentAt);
    if (batch.last.size > 0) this.#options.stats.add(metricNames.offsetCommits, []);
    return undefined;
  }

  /**
   * A batch's output is acknowledged (exactly_once_v2: its transaction committed), its produce
   * (transaction) sent at `sentAt`: weir_batch_processing_seconds, the write_wait and produce steps
   * (docs/engine.md, "Metrics") and the age of its oldest record.
   */
  #acknowledged(batch: SinkBatch, sentAt: number): void {
    const stats = this.#options.stats;
    const now = performance.now();
    stats.latency((now - batch.started) / 1000);
    if (batch.handedOver !== undefined)
      stats.observe(metricNames.batchStep, 'write_wait', (sentAt - batch.handedOver) / 1000);
    stats.observe(metricNames.batchStep, 'produce', (now - sentAt) / 1000);
    if (batch.oldest !== undefined)
      stats.observe(metricNames.recordAge, 'acknowledged', ageSeconds(Date.now(), batch.oldest));
  }

  /** Waits for every batch handed over to be written, then commits what is acknowledged (throws a write's failure). */
  flush(): Promise<void> {
    return this.#pipeline.flush();
  }

  /** Commits what is acknowledged, after the writes before it (offsets a rebalance refused). */
  commitSoon(): void {
    this.#pipeline.commitSoon();
  }

  /** Forgets acknowledged offsets of partitions not in `keep` (`topic\0partition`). */
  retainOnly(keep: ReadonlySet<string>): void {
    this.#pipeline.retainOnly(keep);
  }

  /** After a failure: nothing more is written or committed; the clock output not written, for the next try. */
  async reset(): Promise<OutgoingRecord[]> {
    const unwritten = (await this.#pipeline.reset()).concat(this.#unwritten);
    this.#unwritten = [];
    return unwritten;
  }

  /** Closes the producer and the admin client (each left behind when its close hangs). */
  async close(): Promise<void> {
    const leftBehind = (message: string) =>
      this.#options.onLog('warn', `${this.#options.worker}: ${message}; left behind`);
    await closeWithin(this.#writer.close(), 'the producer', leftBehind);
    await closeWithin(this.topics.close(), 'the admin client', leftBehind);
  }
}
