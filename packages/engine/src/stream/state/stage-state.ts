import { Consumer } from '@platformatic/kafka';
import { closeWithin, withDeadline } from '../deadline.ts';
import { partitionKey, type FetchedRecord, type OutgoingRecord } from '../records.ts';
import type { StageBinding, StreamPlan } from '../topology-plan.ts';
import { readChangelog } from './changelog-restore.ts';
import { IdleClock } from './idle-clock.ts';
import { PartitionedStateStore } from './partitioned-state.ts';
import type { BufferConsumer, KafkaConnection } from '../../kafka/client-options.ts';

export interface StageStateOptions {
  readonly connection: KafkaConnection;
  readonly clientId: string;
  readonly groupId: string;
  readonly guarantee: 'at_least_once' | 'exactly_once_v2';
  /** How its log lines name the worker (`stream worker 2`). */
  readonly worker: string;
  readonly onLog: (level: 'info' | 'warn', message: string) => void;
  /** Reads one changelog partition into the store (changelog-restore.ts; a fake in unit tests). */
  readonly readChangelog?: typeof readChangelog;
}

/** Restoring one changelog partition (changelog-restore.ts also fails after 30 s without progress). */
const restoreDeadlineMs = 300_000;

/** A stage partition whose stream time moves on by `idleFor` ms (the idle close). */
export interface ClockTick {
  readonly topic: string;
  readonly partition: number;
  readonly idleFor: number;
}

/**
 * The state stage: the correlation state of the stage partitions assigned to the worker
 * (partitioned-state.ts), restored from their changelogs by the stage's own restore consumer
 * (plain fetches, never in a group) before any of their records is processed, dropped when they
 * leave; and the idle clock (weir.stream.idle-close-seconds) that says which partitions' stream
 * time moves on without records.
 */
export class StageState {
  readonly store = new PartitionedStateStore();
  readonly #idle = new IdleClock();
  readonly #options: StageStateOptions;
  #restorer: BufferConsumer | undefined;
  /** Counts closes: a restore abandoned at its deadline that ends after one writes nothing. */
  #epoch = 0;

  constructor(options: StageStateOptions) {
    this.#options = options;
  }

  select(topic: string, partition: number): boolean {
    return this.store.select(topic, partition);
  }

  deselect(): void {
    this.store.deselect();
  }

  /** Appends the changelog records of every change since the last drain. */
  drain(out: OutgoingRecord[]): void {
    this.store.drain(out);
  }

  /** Records of stage partitions were processed at `now` (their idle time starts over). */
  active(records: readonly FetchedRecord[], stages: ReadonlyMap<string, StageBinding>, now: number): void {
    for (const r of records) if (stages.has(r.topic)) this.#idle.active(partitionKey(r.topic, r.partition), now);
  }

  /** The state of stage partitions not in `assigned` is dropped (their next owner restores it). */
  retainOnly(assigned: ReadonlySet<string>): void {
    for (const [topic, partition] of [...this.store.partitions()]) {
      if (!assigned.has(partitionKey(topic, partition))) {
        this.store.drop(topic, partition);
        this.#idle.forget(partitionKey(topic, partition));
      }
    }
  }

  /** Restores, from their changelogs, the assigned stage partitions not open yet; throws when one fails (it stays closed). */
  async restore(
    assignments: readonly { readonly topic: string; readonly partitions: readonly number[] }[],
    plan: StreamPlan,
  ): Promise<void> {
    const read = this.#options.readChangelog ?? readChangelog;
    const readCommitted = this.#options.guarantee === 'exactly_once_v2';
    for (const { topic, partitions } of assignments) {
      const stage = plan.stages.get(topic);
      if (!stage) continue;
      for (const partition of partitions) {
        if (this.store.has(topic, partition)) continue;
        const started = performance.now();
        const changelog = stage.topics.changelog;
        this.store.open(topic, partition, changelog);
        const epoch = this.#epoch;
        try {
          const n = await withDeadline(
            read(this.#ensureRestorer(), changelog, partition, readCommitted, (key, value) => {
              // a restore given up at its deadline writes nothing into the state restored after it
              if (epoch === this.#epoch) this.store.restore(topic, partition, key, value);
            }),
            restoreDeadlineMs,
            `restoring ${changelog}-${partition}`,
          );
          this.#options.onLog(
            'info',
            `restored ${n} changelog record(s) of ${changelog}-${partition} in ${Math.round(performance.now() - started)} ms`,
          );
        } catch (err) {
          this.store.drop(topic, partition);
          throw err;
        }
        this.#idle.opened(partitionKey(topic, partition), Date.now());
      }
    }
  }

  /** The stage partitions idle for at least `idleMs` at `now` whose task moves with the clock. */
  ticks(plan: StreamPlan, now: number, idleMs: number): ClockTick[] {
    const ticks: ClockTick[] = [];
    for (const [topic, partition] of [...this.store.partitions()]) {
      const stage = plan.stages.get(topic);
      if (!stage?.topology.tasks[stage.taskIndex]?.advanceBy) continue;
      const idleFor = this.#idle.step(partitionKey(topic, partition), now, idleMs);
      if (idleFor !== undefined) ticks.push({ topic, partition, idleFor });
    }
    return ticks;
  }

  /** A batch's transaction was aborted: the state it changed (and the idle steps since) is void, restored again. */
  rollBack(): void {
    this.dropAll();
    this.#idle.clearSteps();
  }

  /** Drops every partition's state (the consumer left the group). */
  dropAll(): void {
    for (const [topic, partition] of [...this.store.partitions()]) this.store.drop(topic, partition);
  }

  /** Closes the restore consumer; a restore still under way changes nothing when it ends. */
  async close(): Promise<void> {
    this.#epoch++;
    const restorer = this.#restorer;
    this.#restorer = undefined;
    if (restorer)
      await closeWithin(restorer.close(true), 'the restore consumer', (message) =>
        this.#options.onLog('warn', `${this.#options.worker}: ${message}; left behind`),
      );
  }

  #ensureRestorer(): BufferConsumer {
    const o = this.#options;
    this.#restorer ??= new Consumer({
      ...o.connection,
      clientId: `${o.clientId}-restore`,
      groupId: `${o.groupId}-restore-unused`,
    });
    return this.#restorer;
  }
}
