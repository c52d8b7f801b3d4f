import { cloneJson } from './event-values.ts';
import type { CompiledTask, RoutedRecord, TaskIdentity, TaskRecord, TaskResult } from './task-function.ts';

/** A record a task could not process: it goes to the dead-letter topic with the task and the message. */
export interface PipelineFailure {
  readonly task: TaskIdentity;
  readonly message: string;
  /** The record as the failing task received it. */
  readonly record: TaskRecord;
}

export interface PipelineResult {
  /** What leaves the pipeline, for the topology's outputs. */
  readonly records: TaskRecord[];
  /** The alerts APPLY_RULES raised, as raised, for the alerts topic (they are in `records` too when they reach the end). */
  readonly alerts: TaskRecord[];
  readonly failures: PipelineFailure[];
  /** Records routed to a correlation stage (engine mode only, and only when there are any), with the index of the task that routed them. */
  readonly routes?: PipelineRoute[];
}

export interface PipelineRoute {
  readonly taskIndex: number;
  readonly routed: RoutedRecord;
}

function runTask(task: CompiledTask, record: TaskRecord): TaskResult {
  try {
    return task.run(record);
  } catch (error) {
    // a bug, not a data problem: still never lose the record or stop the stream
    return { kind: 'error', message: `internal error in ${task.function}: ${(error as Error).message}` };
  }
}

/** tasks.md, last paragraph: a resulting event without `_time` gets the record timestamp. */
function withTime(record: TaskRecord): void {
  const value = record.value;
  if (typeof value !== 'string' && !Object.hasOwn(value, '_time')) value['_time'] = record.timestamp;
}

/**
 * Runs a record through the tasks in order; the one code path of the engine and of
 * `POST /api/test/pipelines/{id}` (there the record timestamp is now). A record that fails a task
 * stops there and is reported in `failures`; its siblings (other alerts of the same event) go on.
 * Pipelines of one topology chain: pass their tasks as one list.
 */
export function runPipeline(tasks: readonly CompiledTask[], record: TaskRecord): PipelineResult {
  return continuePipeline(tasks, 0, [record], { records: [], alerts: [], failures: [] });
}

/**
 * Continues a routed record on its group's partition: the routing task resumes it at its stage
 * (`result` of CompiledTask.resume or advanceBy), then the tasks after it run as usual.
 */
export function resumePipeline(tasks: readonly CompiledTask[], taskIndex: number, result: TaskResult): PipelineResult {
  const acc: PipelineResult = {
    records: [],
    alerts: [],
    failures: [],
    ...(result.kind !== 'error' && result.routes?.length ? { routes: [] } : {}),
  };
  if (result.kind === 'error') return acc;
  const last = taskIndex === tasks.length - 1;
  if (result.kind === 'alerts') {
    for (const a of result.records) acc.alerts.push(last ? a : raised(a));
    if (result.updates) for (const u of result.updates) acc.alerts.push(u);
  }
  if (result.routes) for (const routed of result.routes) acc.routes!.push({ taskIndex, routed });
  return continuePipeline(tasks, taskIndex + 1, [...result.records], acc);
}

function continuePipeline(
  tasks: readonly CompiledTask[],
  from: number,
  records: TaskRecord[],
  acc: PipelineResult,
): PipelineResult {
  let current: TaskRecord[] = records;
  const { alerts, failures } = acc;
  let routes = acc.routes;
  for (let t = from; t < tasks.length && current.length > 0; t++) {
    const task = tasks[t] as CompiledTask;
    const last = t === tasks.length - 1;
    // one input (the usual case): its result array is used as it is
    let next: TaskRecord[] | null = null;
    for (let r = 0; r < current.length; r++) {
      const input = current[r] as TaskRecord;
      const result = runTask(task, input);
      if (result.kind === 'error') {
        failures.push({
          task: { id: task.id, name: task.name, function: task.function },
          message: result.message,
          record: input,
        });
        continue;
      }
      if (result.kind === 'alerts') {
        // later tasks may change the records they get: the alerts topic keeps the alerts as raised
        for (const a of result.records) alerts.push(last ? a : raised(a));
      }
      if (result.routes) for (const routed of result.routes) (routes ??= []).push({ taskIndex: t, routed });
      // alerts of one event may share nested values (APPLY_RULES): later tasks get their own copies
      const records = result.kind === 'alerts' && !last ? ownCopies(result.records) : result.records;
      if (next === null) next = current.length === 1 ? (records as TaskRecord[]) : [...records];
      else for (const out of records) next.push(out);
    }
    current = next ?? [];
  }
  if (Object.isFrozen(current)) current = [];
  for (const out of current) withTime(out);
  for (const a of alerts) withTime(a);
  return routes === undefined ? { records: current, alerts, failures } : { records: current, alerts, failures, routes };
}

/** The records with every one after the first a deep copy (the first keeps the objects it shares with the input). */
function ownCopies(records: readonly TaskRecord[]): readonly TaskRecord[] {
  if (records.length < 2) return records;
  return records.map((r, i) => (i === 0 ? r : { ...r, value: cloneJson(r.value) as TaskRecord['value'] }));
}

/** An alert as raised, kept for the alerts topic: a copy, since later tasks may change the record. */
function raised(a: TaskRecord): TaskRecord {
  const value = cloneJson(a.value) as TaskRecord['value'];
  if (a.rule === undefined) return { value, timestamp: a.timestamp };
  return a.alertOverride === undefined
    ? { value, timestamp: a.timestamp, rule: a.rule }
    : { value, timestamp: a.timestamp, rule: a.rule, alertOverride: a.alertOverride };
}
