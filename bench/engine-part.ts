/**
 * What bench/engine.ts hands the parts kept in files of their own (bench/engine-sigma.ts,
 * bench/engine-memory.ts): its broker, its topics and its measurement loop.
 */
import type { Admin } from '@platformatic/kafka';
import type { Runner } from './engine-procs.ts';

/** A run as bench/engine.ts's `measure` reports it (the fields the parts read). */
export interface PartMeasured {
  readonly rate: number;
  readonly cpuPerMillion: number;
  readonly rssMaxMiB: number;
  /** Resident memory at the first output, at half of the input and at its end. */
  readonly rssSteps: number[];
  readonly outputs: number;
  /** How often each worker thread took a batch (ms: the window × threads / batches), when the runner counts them. */
  readonly cadenceMs?: number;
  /** CPU-s per 1M events of the broker's JVM over the same window (it shares the cores). */
  readonly brokerCpuPerMillion?: number;
  /** CPU-s per 1M events of the bench's own process over the same window (its offset polls). */
  readonly benchCpuPerMillion?: number;
}

export interface PartContext {
  readonly bootstrap: string;
  readonly admin: Admin;
  /** The bench's temporary directory (removed at its end). */
  readonly dir: string;
  /** Partitions of every topic the bench creates. */
  readonly partitions: number;
  /** Events of the run (the command's argument). */
  readonly events: number;
  createTopics(names: string[]): Promise<void>;
  /** Records on a topic (the sum of its partitions' end offsets). */
  endOffset(topic: string): Promise<number>;
  /** From the first output record until the group has committed `total` records of the input: events/s, CPU, resident memory; stops the runner. */
  measure(runner: Runner, group: string, input: string, output: string, total: number): Promise<PartMeasured>;
  log(name: string): (message: string) => void;
}
