import type { MessageToProduce } from '@platformatic/kafka';
import {
  resumePipeline,
  runPipeline,
  type PipelineResult,
  type RoutedRecord,
  type TaskRecord,
  type TaskResult,
} from '../tasks/index.ts';
import { deadLetterRecord, type SourceRecord } from './dead-letter.ts';
import { metricNames } from './metric-names.ts';
import { decodeValue, encodeValue } from './record-codec.ts';
import type { TopologyPlan } from './topology-plan.ts';
import type { WorkerStats } from './worker-stats.ts';

export type OutgoingRecord = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/**
 * Sends a routed record to its stage's repartition topic (appending to `out`); false when the
 * topology has no repartition topic for that task (then it is continued in place).
 */
export type Router = (
  topology: TopologyPlan,
  taskIndex: number,
  routed: RoutedRecord,
  sourceKey: Buffer | undefined,
  source: SourceRecord | undefined,
  out: OutgoingRecord[],
) => boolean;

/**
 * Runs one consumed record through every topology reading its topic and appends what must be
 * written (outputs, alerts, dead letters, repartition records) to `out`. Pure apart from `stats`: no I/O.
 */
export function processRecord(
  source: SourceRecord,
  topologies: readonly TopologyPlan[],
  alertsTopic: string,
  stats: WorkerStats,
  out: OutgoingRecord[],
  route?: Router,
): void {
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
    writeResult(source, source.key, topology, result, alertsTopic, stats, out, route);
  }
}

/**
 * Continues a routed record (read from a repartition topic, or routed where no repartition topic
 * exists) at its task, with the state of the partition the caller selected. `result` is what the
 * task's resume (or advanceBy) gave.
 */
export function continueRouted(
  source: SourceRecord | undefined,
  sourceKey: Buffer | undefined,
  topology: TopologyPlan,
  taskIndex: number,
  result: TaskResult,
  alertsTopic: string,
  stats: WorkerStats,
  out: OutgoingRecord[],
  route?: Router,
): void {
  writeResult(
    source,
    sourceKey,
    topology,
    resumePipeline(topology.tasks, taskIndex, result),
    alertsTopic,
    stats,
    out,
    route,
  );
}

function writeResult(
  source: SourceRecord | undefined,
  key: Buffer | undefined,
  topology: TopologyPlan,
  result: PipelineResult,
  alertsTopic: string,
  stats: WorkerStats,
  out: OutgoingRecord[],
  route: Router | undefined,
): void {
  for (const failure of result.failures) {
    if (source)
      deadLetter(source, topology.name, failure.task.name, `${failure.task.function}: ${failure.message}`, stats, out);
    else stats.add(metricNames.skipped, [topology.name, failure.task.name]);
  }
  writeOutputs(source ?? { key }, topology, result.records, stats, out, key);
  for (const alert of result.alerts) {
    out.push({
      topic: alertsTopic,
      key,
      value: Buffer.from(JSON.stringify(alert.value)),
      timestamp: BigInt(alert.timestamp),
    });
    stats.add(metricNames.alerts, [topology.name]);
  }
  topology.ruleMatches.drainInto(stats);
  for (const { taskIndex, routed } of result.routes ?? []) {
    if (route?.(topology, taskIndex, routed, key, source, out)) continue;
    // no repartition topic for this task (it gained a correlation after the plan was made): continued here
    const task = topology.tasks[taskIndex];
    if (task?.resume)
      continueRouted(source, key, topology, taskIndex, task.resume(routed), alertsTopic, stats, out, undefined);
  }
}

/** Records emitted by the clock (correlation windows closed by time), written to the topology's outputs. */
export function writeOutputs(
  source: Pick<SourceRecord, 'key'> & Partial<SourceRecord>,
  topology: TopologyPlan,
  records: readonly TaskRecord[],
  stats: WorkerStats,
  out: OutgoingRecord[],
  key: Buffer | undefined = source.key,
): void {
  for (const record of records) {
    let previousType: string | undefined;
    let previous: Buffer | undefined;
    for (const output of topology.outputs) {
      let value: Buffer;
      try {
        value = previousType === output.valueType && previous ? previous : encodeValue(output.valueType, record.value);
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

/**
 * The largest spread of record timestamps one produce request may hold per topic. @platformatic/kafka
 * (through @platformatic/dynamic-buffer 0.3.1, `int64ZigZagEncode`: `value >> 31n` where 64-bit
 * zigzag needs `>> 63n`) writes a record's timestamp delta from its batch's first record wrongly
 * once the delta reaches ±2^31 ms (~24.8 days): the broker then stores a timestamp off by a few
 * milliseconds or more. Records of old events mixed with current ones (TIMESTAMP parsing a past
 * time, a fallback to the record time) hit it.
 */
const maxTimestampSpread = 2n ** 31n - 1n;

/**
 * `out` split, in order, into runs whose records of each topic lie within `maxTimestampSpread` of
 * each other, to be sent one after the other (so per-partition order is kept). Almost always one run.
 */
export function timestampSafeRuns(out: OutgoingRecord[]): OutgoingRecord[][] {
  if (out.length === 0) return [out];
  // a record without a timestamp gets the time of the send
  const now = BigInt(Date.now());
  let min = out[0]!.timestamp ?? now;
  let max = min;
  for (let i = 1; i < out.length; i++) {
    const ts = out[i]!.timestamp ?? now;
    if (ts < min) min = ts;
    else if (ts > max) max = ts;
  }
  if (max - min <= maxTimestampSpread) return [out];
  const runs: OutgoingRecord[][] = [];
  let run: OutgoingRecord[] = [];
  let bounds = new Map<string, [bigint, bigint]>();
  for (const record of out) {
    const ts = record.timestamp ?? now;
    const b = bounds.get(record.topic);
    const lo = b === undefined || ts < b[0] ? ts : b[0];
    const hi = b === undefined || ts > b[1] ? ts : b[1];
    if (hi - lo > maxTimestampSpread) {
      runs.push(run);
      run = [];
      bounds = new Map([[record.topic, [ts, ts]]]);
    } else {
      bounds.set(record.topic, [lo, hi]);
    }
    run.push(record);
  }
  runs.push(run);
  return runs;
}

/** Bytes of keys and values one produce request may carry: below the broker's default max.message.bytes (1 MiB) per partition batch. */
const maxRequestBytes = 512 * 1024;

/**
 * `runs` cut further, in order, so that no send carries more than `maxRequestBytes` of keys and
 * values (a batch of changelog records of large correlation groups could otherwise exceed the
 * broker's message size limit and fail the batch over and over).
 */
export function sizeBoundedRuns(runs: readonly OutgoingRecord[][]): OutgoingRecord[][] {
  const out: OutgoingRecord[][] = [];
  for (const run of runs) {
    let chunk: OutgoingRecord[] = [];
    let bytes = 0;
    for (const record of run) {
      const size = (record.key?.length ?? 0) + (record.value?.length ?? 0) + 64;
      if (chunk.length > 0 && bytes + size > maxRequestBytes) {
        out.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(record);
      bytes += size;
    }
    if (chunk.length > 0) out.push(chunk);
  }
  return out;
}
