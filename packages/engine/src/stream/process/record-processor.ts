import {
  resumePipeline,
  runPipeline,
  type PipelineResult,
  type RoutedRecord,
  type TaskRecord,
  type TaskResult,
} from '../../tasks/index.ts';
import { metricNames } from '../metric-names.ts';
import type { FetchedRecord, OutgoingRecord, SourceRecord } from '../records.ts';
import type { StageBinding, StreamPlan, TopologyPlan } from '../topology-plan.ts';
import type { WorkerStats } from '../worker-stats.ts';
import { alertRecordValue, ordinalOf } from './alert-record.ts';
import { deadLetterRecord, deadLetterTopic } from './dead-letter.ts';
import { decodeValue, encodeValue, type JsonBytes } from './record-codec.ts';
import { decodeRouted, encodeRouted, partitionOf } from './repartition-records.ts';
import { decodeBundle, isBundle, RouteBundles, type BundledRoute } from './route-bundles.ts';

/**
 * The process stage: records in, what must be written out, as data. An input record runs through
 * every topology reading its topic; a repartition record continues at its stage's task; a clock
 * tick moves a stage partition's stream time. Out come, in order, outputs, alerts, dead letters
 * and repartition records (a record routed to a stage is written to its repartition topic, to the
 * partition of its group; routes that may bundle (route-bundles.ts) are written at the batch's end,
 * one record per bundle). Pure apart from the counters in `stats`: no I/O, no callbacks.
 */
export interface ProcessEnv {
  readonly alertsTopic: string;
  readonly stats: WorkerStats;
  /** Partition count of each stage's repartition topic (a stage without one is continued in place). */
  readonly stagePartitions: ReadonlyMap<string, number>;
}

/** The correlation state the stage's tasks read: the partition of the record at hand is selected (state/). */
export interface StateSelection {
  select(topic: string, partition: number): boolean;
  deselect(): void;
}

/** What a batch or a tick gave: the records to write and the records that could not be read. */
export interface Processed {
  readonly out: OutgoingRecord[];
  /** One line per record skipped because it could not be read (`topic/partition/offset: why`). */
  readonly warnings: string[];
}

/** Runs a batch of admitted records (input and repartition records) through the plan. */
export function processBatch(
  records: readonly FetchedRecord[],
  plan: StreamPlan,
  state: StateSelection,
  env: ProcessEnv,
): Processed {
  const processed: Processed = { out: [], warnings: [] };
  const bundles = new RouteBundles();
  for (const record of records) {
    const stage = plan.stages.get(record.topic);
    if (stage) processRouted(record, stage, state, env, processed);
    else {
      const topologies = plan.byInput.get(record.topic);
      if (topologies) processInput(record, topologies, env, processed.out, bundles);
    }
  }
  state.deselect();
  bundles.drain(processed.out);
  return processed;
}

/**
 * The idle close: stage partitions whose stream time moves on by `idleFor` ms without a record
 * (their emit=close windows close); what they emit continues through the rest of the topology.
 */
export function processTicks(
  ticks: readonly { readonly topic: string; readonly partition: number; readonly idleFor: number }[],
  plan: StreamPlan,
  state: StateSelection,
  env: ProcessEnv,
): OutgoingRecord[] {
  const out: OutgoingRecord[] = [];
  for (const { topic, partition, idleFor } of ticks) {
    const stage = plan.stages.get(topic);
    const task = stage?.topology.tasks[stage.taskIndex];
    if (!stage || !task?.advanceBy) continue;
    state.select(topic, partition);
    continueRouted(undefined, undefined, stage.topology, stage.taskIndex, task.advanceBy(idleFor), env, out, true);
  }
  state.deselect();
  return out;
}

/**
 * Runs one consumed record through every topology reading its topic and appends what must be
 * written (outputs, alerts, dead letters, repartition records) to `out`; routes that may bundle go
 * to `bundles` when given (written with the batch).
 */
export function processInput(
  source: SourceRecord,
  topologies: readonly TopologyPlan[],
  env: ProcessEnv,
  out: OutgoingRecord[],
  bundles?: RouteBundles,
): void {
  const stats = env.stats;
  if (source.value === undefined || source.value === null) {
    // A tombstone carries no event: counted, not processed.
    stats.add(metricNames.skipped, [source.topic, 'tombstone']);
    return;
  }
  const timestamp = Number(source.timestamp);
  for (let i = 0; i < topologies.length; i++) {
    const topology = topologies[i]!;
    stats.add(metricNames.recordsIn, [topology.name]);
    if (topology.failure !== undefined) {
      deadLetter(source, topology.name, 'topology', topology.failure, stats, out);
      continue;
    }
    let text: string;
    try {
      text = decodeValue(topology.valueType, source.value);
    } catch (err) {
      deadLetter(source, topology.name, 'decode', (err as Error).message, stats, out);
      continue;
    }
    const result = runPipeline(topology.tasks, { value: text, timestamp });
    writeResult(source, source.key, topology, result, env, out, true, bundles);
  }
}

/** A record of a stage's repartition topic: continued at its task with the state of its partition. */
function processRouted(
  message: FetchedRecord,
  stage: StageBinding,
  state: StateSelection,
  env: ProcessEnv,
  processed: Processed,
): void {
  const topology = stage.topology;
  const task = topology.tasks[stage.taskIndex];
  if (!message.value || !task?.resume) return;
  if (isBundle(message.value)) return processBundle(message, message.value, stage, state, env, processed);
  let decoded: ReturnType<typeof decodeRouted>;
  try {
    decoded = decodeRouted(message.value, message.key, Number(message.timestamp));
  } catch (err) {
    env.stats.add(metricNames.skipped, [message.topic, 'decode']);
    processed.warnings.push(`${message.topic}/${message.partition}/${message.offset}: ${(err as Error).message}`);
    return;
  }
  state.select(message.topic, message.partition);
  // a dead letter of a task after the stage is the input record the event came from, on the input's DLQ;
  // an event emitted by the idle close has none: then it is the repartition record (the event inside)
  const origin = decoded.origin ?? message;
  const source: SourceRecord = {
    topic: origin.topic,
    partition: origin.partition,
    offset: origin.offset,
    key: decoded.sourceKey,
    value: origin.value,
    timestamp: origin.timestamp,
    deadLetterTo: deadLetterTopic(topology.input),
  };
  // the origin's coordinates travel with the routed record: a suppression window keeps its representative's
  const routed = decoded.origin
    ? {
        ...decoded.routed,
        origin: { topic: origin.topic, partition: origin.partition, offset: Number(origin.offset) },
      }
    : decoded.routed;
  resumeRouted(source, decoded.sourceKey, topology, stage.taskIndex, routed, env, processed.out);
}

/** A bundle of routes (route-bundles.ts): each continued at its task in its order, as a record of its own would be. */
function processBundle(
  message: FetchedRecord,
  value: Buffer,
  stage: StageBinding,
  state: StateSelection,
  env: ProcessEnv,
  processed: Processed,
): void {
  let routes: BundledRoute[];
  try {
    routes = decodeBundle(value);
  } catch (err) {
    env.stats.add(metricNames.skipped, [message.topic, 'decode']);
    processed.warnings.push(`${message.topic}/${message.partition}/${message.offset}: ${(err as Error).message}`);
    return;
  }
  state.select(message.topic, message.partition);
  const topology = stage.topology;
  const deadLetterTo = deadLetterTopic(topology.input);
  for (const { routed, source } of routes)
    resumeRouted({ ...source, deadLetterTo }, source.key, topology, stage.taskIndex, routed, env, processed.out);
}

/** A routed record resumed at its task (the state of its partition selected); a task's failure there sends its input record to the dead letters. */
function resumeRouted(
  source: SourceRecord,
  sourceKey: Buffer | undefined,
  topology: TopologyPlan,
  taskIndex: number,
  routed: RoutedRecord,
  env: ProcessEnv,
  out: OutgoingRecord[],
): void {
  const task = topology.tasks[taskIndex]!;
  const result = task.resume!(routed);
  if (result.kind === 'error') {
    deadLetter(source, topology.name, task.name, `${task.function}: ${result.message}`, env.stats, out);
    return;
  }
  continueRouted(source, sourceKey, topology, taskIndex, result, env, out, true);
}

/**
 * Continues a routed record at its task, with the state of the partition selected. `result` is
 * what the task's resume (or advanceBy) gave; `routing` false: routed records continue in place.
 */
function continueRouted(
  source: SourceRecord | undefined,
  sourceKey: Buffer | undefined,
  topology: TopologyPlan,
  taskIndex: number,
  result: TaskResult,
  env: ProcessEnv,
  out: OutgoingRecord[],
  routing: boolean,
): void {
  writeResult(source, sourceKey, topology, resumePipeline(topology.tasks, taskIndex, result), env, out, routing);
}

function writeResult(
  source: SourceRecord | undefined,
  key: Buffer | undefined,
  topology: TopologyPlan,
  result: PipelineResult,
  env: ProcessEnv,
  out: OutgoingRecord[],
  routing: boolean,
  bundles?: RouteBundles,
): void {
  const stats = env.stats;
  for (const failure of result.failures) {
    if (source)
      deadLetter(source, topology.name, failure.task.name, `${failure.task.function}: ${failure.message}`, stats, out);
    else stats.add(metricNames.skipped, [topology.name, failure.task.name]);
  }
  const alerts = result.alerts;
  // an alert that leaves the pipeline is on the outputs and the alerts topic: its JSON bytes made once
  const bytes: JsonBytes | undefined = alerts.length > 0 && result.records.length > 0 ? new Map() : undefined;
  writeOutputs(source ?? { key }, topology, result.records, stats, out, key, bytes);
  for (let i = 0; i < alerts.length; i++) {
    const alert = alerts[i]!;
    out.push({
      topic: env.alertsTopic,
      key,
      value: alertRecordValue(alert, source, ordinalOf(alerts, i), bytes),
      timestamp: BigInt(alert.timestamp),
    });
    stats.add(metricNames.alerts, [topology.name]);
  }
  topology.ruleMatches.drainInto(stats);
  for (const { taskIndex, routed } of result.routes ?? []) {
    if (routing && route(topology, taskIndex, routed, key, source, env, out, bundles)) continue;
    // no repartition topic for this task (it gained a correlation after the plan was made): continued here
    const task = topology.tasks[taskIndex];
    if (task?.resume) continueRouted(source, key, topology, taskIndex, task.resume(routed), env, out, false);
  }
}

/**
 * A routed record, to its stage's repartition topic, to the partition of its group (in a bundle,
 * when it may bundle and `bundles` is given, else a record of its own); false when there is none.
 */
function route(
  topology: TopologyPlan,
  taskIndex: number,
  routed: RoutedRecord,
  sourceKey: Buffer | undefined,
  source: SourceRecord | undefined,
  env: ProcessEnv,
  out: OutgoingRecord[],
  bundles: RouteBundles | undefined,
): boolean {
  const topics = topology.stages?.get(taskIndex);
  const partitions = topics && env.stagePartitions.get(topics.repartition);
  if (!topics || !partitions) return false;
  const partition = partitionOf(routed.key, partitions);
  if (bundles && source && routed.bundle) {
    bundles.add(topics.repartition, partition, routed, routed.bundle, source);
    return true;
  }
  out.push({
    topic: topics.repartition,
    partition,
    key: Buffer.from(routed.key),
    value: encodeRouted(routed, sourceKey, source),
    timestamp: BigInt(routed.timestamp),
  });
  return true;
}

/** A result's records, written to every output of the topology (encoded once per value type). */
function writeOutputs(
  source: Pick<SourceRecord, 'key'> & Partial<SourceRecord>,
  topology: TopologyPlan,
  records: readonly TaskRecord[],
  stats: WorkerStats,
  out: OutgoingRecord[],
  key: Buffer | undefined = source.key,
  bytes?: JsonBytes,
): void {
  for (const record of records) {
    let previousType: string | undefined;
    let previous: Buffer | undefined;
    for (const output of topology.outputs) {
      let value: Buffer;
      try {
        value =
          previousType === output.valueType && previous ? previous : encodeValue(output.valueType, record.value, bytes);
      } catch (err) {
        if (source.topic !== undefined)
          deadLetter(
            source as SourceRecord,
            topology.name,
            'encode',
            `${output.topic}: ${(err as Error).message}`,
            stats,
            out,
          );
        else stats.add(metricNames.skipped, [output.topic, 'encode']);
        continue;
      }
      previousType = output.valueType;
      previous = value;
      out.push({ topic: output.topic, key, value, timestamp: BigInt(record.timestamp) });
      stats.add(metricNames.recordsOut, [topology.name, output.topic]);
    }
  }
}

function deadLetter(
  source: SourceRecord,
  topology: string,
  task: string,
  error: string,
  stats: WorkerStats,
  out: OutgoingRecord[],
): void {
  out.push(deadLetterRecord(source, { topology, task, error }));
  stats.add(metricNames.deadLettered, [topology, task]);
}
