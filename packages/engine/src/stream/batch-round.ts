import { processBatch, processTicks, type ProcessEnv } from './process/record-processor.ts';
import { metricNames } from './metric-names.ts';
import { ageSeconds, oldestTimestamp, type FetchedRecord, type OutgoingRecord } from './records.ts';
import type { Sink } from './sink/sink.ts';
import type { Source } from './source/source.ts';
import type { StageState } from './state/stage-state.ts';
import type { StreamPlan } from './topology-plan.ts';

/** The stages a round goes through, and where it logs what the process stage could not read. */
export interface RoundStages {
  readonly source: Source;
  readonly state: StageState;
  readonly sink: Sink;
  readonly env: ProcessEnv;
  readonly onWarning: (message: string) => void;
}

/**
 * One batch's way through the stages, one way: source → state → process → sink. The state follows
 * the source's assignment first (what was processed under the previous one is written and committed:
 * commit on revoke; gained stage partitions are restored before their records), then the source
 * admits the batch, the process stage turns it into records to write, and the sink writes them with
 * the offsets. The idle clock's output waits here for the next batch, which writes it.
 */
export class BatchRound {
  readonly #stages: RoundStages;
  /** Records emitted by the clock, written with the next batch. */
  #clockOutput: OutgoingRecord[] = [];

  constructor(stages: RoundStages) {
    this.#stages = stages;
  }

  /** Whether the clock emitted records that wait for a batch. */
  get clockPending(): boolean {
    return this.#clockOutput.length > 0;
  }

  /** Runs a fetched batch through the stages under `plan` (`stopped`: the worker stops); resolves once the sink took it (or wrote it, exactly_once_v2). */
  async run(batch: FetchedRecord[], plan: StreamPlan, stopped: AbortSignal): Promise<void> {
    const { source, state, sink, env } = this.#stages;
    const started = performance.now();
    const takenAt = Date.now();
    // the generation whose assignment this batch is checked against (read before the sync, which
    // awaits): its offsets are committed under it, so a rebalance completed meanwhile aborts them
    const group = source.groupMetadata();
    await this.#syncAssignment(plan, stopped);
    const pending = this.#clockOutput;
    this.#clockOutput = [];
    const processing = performance.now();
    const admitted = source.admit(batch);
    const oldest = oldestTimestamp(admitted.records);
    state.active(admitted.records, plan.stages, Date.now());
    const processed = processBatch(admitted.records, plan, state, env);
    for (const warning of processed.warnings) this.#stages.onWarning(warning);
    const out = pending.length > 0 ? [...pending, ...processed.out] : processed.out;
    // the state's changes go to the changelog once the outputs are acknowledged (sink/batch-writer.ts)
    const changelog: OutgoingRecord[] = [];
    state.drain(changelog);
    // the time the batch took through the process stage sizes the next batches (source/batch-sizer.ts)
    const handedOver = performance.now();
    source.processed(batch.length, handedOver - processing);
    this.#observe(oldest, takenAt, (handedOver - started) / 1000);
    const refused = await sink.write(
      {
        out,
        changelog,
        last: admitted.last,
        records: admitted.records.length,
        started,
        handedOver,
        ...(oldest !== undefined ? { oldest } : {}),
        clockOutput: pending,
      },
      group,
      source.consumer,
    );
    if (refused === undefined) return;
    // the transaction was aborted under a rebalance: the batch again, its stage state restored from the changelogs
    source.rollBack(batch, admitted.before, refused);
    state.rollBack();
  }

  /** The batch's steps so far (docs/engine.md, "Metrics"): its oldest record's age when taken and when processed, the process step. */
  #observe(oldest: number | undefined, takenAt: number, processSeconds: number): void {
    const stats = this.#stages.env.stats;
    stats.observe(metricNames.batchStep, 'process', processSeconds);
    if (oldest === undefined) return;
    stats.observe(metricNames.recordAge, 'taken', ageSeconds(takenAt, oldest));
    stats.observe(metricNames.recordAge, 'processed', ageSeconds(Date.now(), oldest));
  }

  /** Brings the state and the sink in line with the consumer's assignment (source/positions.ts). */
  async #syncAssignment(plan: StreamPlan, stopped: AbortSignal): Promise<void> {
    const { source, state, sink } = this.#stages;
    const change = source.assignmentChange();
    if (!change) return;
    await sink.flush();
    sink.retainOnly(change.assigned);
    source.adopt(change);
    state.retainOnly(change.assigned);
    if (change.gained.length > 0) await source.settle(change.gained, stopped);
    try {
      await state.restore(change.assignments, plan);
    } catch (err) {
      source.positions.forgetAssignment();
      throw err;
    }
  }

  /**
   * The idle close (weir.stream.idle-close-seconds): stage partitions idle for `idleMs` move their
   * stream time on; what their windows emit goes through the rest of the topology and is written
   * with the next batch (inside its transaction under exactly_once_v2). True when records were emitted.
   */
  tick(plan: StreamPlan, idleMs: number): boolean {
    const { state, env } = this.#stages;
    const out = processTicks(state.ticks(plan, Date.now(), idleMs), plan, state, env);
    this.#clockOutput.push(...out);
    return out.length > 0;
  }

  /** After a failure: the clock output of batches not written, kept for the next try. */
  async reset(): Promise<void> {
    this.#clockOutput = (await this.#stages.sink.reset()).concat(this.#clockOutput);
  }
}
