import type { CompileOptions, CompiledPdl, CorrelationStateStore, LookupResolver } from '@weir/pdl';
import type { TaskFunction } from '@weir/contract';
import type { RuleEntry, RuleSource } from '../rules/rule-book.ts';
import type { AlertOverride, AlertSourceRef } from '../rules/rule-suppression.ts';

/**
 * The contract of a task function (../shared/spec/tasks.md): a task is compiled once from its
 * definition into a CompiledTask, whose `run` is a function of the record alone. Kafka, the
 * rule store and metrics stay outside and come in through TaskEnvironment.
 */

export type JsonObject = Record<string, unknown>;

/** A record flowing through a pipeline: text (a string) or an event (a JSON object). Keys are not the task's concern. */
export interface TaskRecord {
  readonly value: string | JsonObject;
  /** Epoch milliseconds (the Kafka record timestamp). */
  readonly timestamp: number;
  /** An alert's rule (APPLY_RULES): what the alerts topic's `_alert` is made of (docs/alerts.md). */
  readonly rule?: RuleEntry;
  /** A suppressed rule's alert (rules/rule-suppression.ts): the `_alert` id, source and suppression it gets instead. */
  readonly alertOverride?: AlertOverride;
}

/**
 * What a task did with one record:
 * - `records`: zero or more records for the next task (zero = dropped on purpose, e.g. by FILTER);
 * - `alerts`: records that are alerts (APPLY_RULES); they go on like `records` and also to the alerts topic;
 * - `error`: the record could not be processed; the runtime sends it to the dead-letter topic.
 */
export type TaskResult =
  | { readonly kind: 'records'; readonly records: readonly TaskRecord[]; readonly routes?: readonly RoutedRecord[] }
  | {
      readonly kind: 'alerts';
      readonly records: readonly TaskRecord[];
      readonly routes?: readonly RoutedRecord[];
      /** Alerts for the alerts topic only (a suppression window's update record): they do not go on through the pipeline. */
      readonly updates?: readonly TaskRecord[];
    }
  | { readonly kind: 'error'; readonly message: string };

/**
 * A record on its way to a correlation stage that must run where its group's state lives (only
 * when TaskEnvironment.routeCorrelations is set): the engine sends it through the stage's
 * repartition topic, keyed by `key`, and continues it there with CompiledTask.resume.
 */
export interface RoutedRecord {
  /** Which correlation of the task: `rule:<id>` (APPLY_RULES) or `pdl` (PDL_EXPRESSION). */
  readonly stage: string;
  /** Index of the PDL stage it continues at. */
  readonly pdlStage: number;
  /** The group key (JSON of the group_by values). */
  readonly key: string;
  /** The event as it reaches the stage. */
  readonly event: JsonObject;
  /** Event time (epoch ms). */
  readonly time: number;
  /** The record timestamp it came with. */
  readonly timestamp: number;
  /** Where it is resumed: the input record it came from, when there is one (a suppression's representative alert keeps it). */
  readonly origin?: AlertSourceRef;
  /** Routes of one input partition and batch with the same stage and `bundle.group` may travel in one repartition record (stream/process/route-bundles.ts). */
  readonly bundle?: RouteBundleHint;
  /** Set when it travelled in a bundle without its event (`event` is then empty): under which `bundle.group` it was left out. */
  readonly elided?: { readonly group: string };
}

/**
 * How a route may share a repartition record (a bundle) with routes of the same stage and group,
 * and when it may travel without its event: when a route before it in the bundle has the same
 * `window`, its time is not below theirs, and no route before it in the bundle has a time at or
 * past its `closeFloor` (a suppression: its window is then open and keeps an alert before it).
 */
export interface RouteBundleHint {
  readonly group: string;
  readonly window: string;
  readonly closeFloor: number;
}

/** The stored task resource, as far as compiling it is concerned. */
export interface TaskSpec {
  readonly id: number;
  readonly name: string;
  readonly function: string;
  readonly definition?: unknown;
}

/** Who is reporting, for counters and dead-letter headers. */
export interface TaskIdentity {
  readonly id: number;
  readonly name: string;
  readonly function: TaskFunction;
}

export interface CompiledTask extends TaskIdentity {
  /**
   * Runs the task on one record. Never throws for a data problem: it returns an error result.
   * Ownership: the task may modify the event object it is given and return it (no copy on the hot
   * path); pass a copy when the caller still needs the input afterwards.
   */
  run(record: TaskRecord): TaskResult;
  /**
   * Present when the task keeps correlation state that the clock can complete (a PDL_EXPRESSION
   * with `emit=close` windows): the records emitted by windows that closed before `nowMs`.
   */
  advanceTime?(nowMs: number): TaskRecord[];
  /** Present on tasks that route correlations: continues a routed record at its stage (the state of its group). */
  resume?(routed: RoutedRecord): TaskResult;
  /** Present on tasks that route correlations: advances the stream time of their stages by `elapsedMs` (idle close). */
  advanceBy?(elapsedMs: number): TaskResult;
  /**
   * Present on tasks whose correlation stages come and go with the configuration (APPLY_RULES: the
   * rules it lists): whether one runs in the task now. A task with `resume` and without this always holds one.
   */
  holdsCorrelation?(): boolean;
  /**
   * Present on tasks that do work ahead of their first record when their environment changed
   * (APPLY_RULES: resolves the rules it lists and builds their index). The stream worker calls
   * it when it takes the task into a plan (a new configuration), so that this work is not done
   * on the record path; without the call, the task does it at its next record.
   */
  prepare?(): void;
}

export type RuleSkipReason = 'missing' | 'disabled';

export type SuppressionOutcome = 'suppressed' | 'duplicate' | 'late';

/** Metric hooks; every one is optional. */
export interface TaskCounters {
  /**
   * A data problem the task recovered from without failing the record (TIMESTAMP: missing or
   * unparseable time). Error results are counted by whoever handles them (the runtime), not here.
   */
  taskError?(task: TaskIdentity, message: string): void;
  /** APPLY_RULES skipped a listed rule. */
  ruleSkipped?(task: TaskIdentity, ruleId: string, reason: RuleSkipReason): void;
  /** APPLY_RULES raised an alert for a rule (once per alert: what `weir_rule_matches_total` counts). */
  ruleMatched?(task: TaskIdentity, ruleId: string): void;
  /**
   * A rule's suppression counted an alert instead of writing it (`suppressed`), saw an input record's
   * alert again (`duplicate`: not counted twice) or opened a window after its close (`late`: written).
   */
  ruleSuppressed?(task: TaskIdentity, ruleId: string, outcome: SuppressionOutcome): void;
}

/** The PDL compiler (`compile` of @weir/pdl); injectable so the runtime can wrap it. */
export type PdlCompiler = (source: string, options?: CompileOptions) => CompiledPdl;

/** Everything a task needs from outside its definition. */
export interface TaskEnvironment {
  readonly rules?: RuleSource;
  readonly lookups?: LookupResolver;
  readonly counters?: TaskCounters;
  /** The clock (epoch ms): the year of syslog times without one, PDL `now()`. Default Date.now. */
  readonly now?: () => number;
  /** Where PDL_EXPRESSION correlation stages keep state; default: in memory, per task. */
  readonly stateStore?: CorrelationStateStore;
  /** Default: `compile` of @weir/pdl. */
  readonly pdl?: PdlCompiler;
  /**
   * The stream engine's mode: correlation stages do not run in the task; records reaching one come
   * back as `routes` (RoutedRecord) and are continued with `resume` on their group's partition.
   */
  readonly routeCorrelations?: boolean;
}

/**
 * Compiles one function's definition (validated against its schema; defaults not yet applied).
 * Throws TaskDefinitionError for what the schema cannot check (regex, PDL, time format).
 */
export type TaskFactory = (definition: JsonObject, task: TaskIdentity, env: TaskEnvironment) => CompiledRun;

export interface CompiledRun {
  readonly run: CompiledTask['run'];
  readonly advanceTime?: CompiledTask['advanceTime'];
  readonly resume?: CompiledTask['resume'];
  readonly advanceBy?: CompiledTask['advanceBy'];
  readonly holdsCorrelation?: CompiledTask['holdsCorrelation'];
  readonly prepare?: CompiledTask['prepare'];
}

export type { TaskFunction };
// What APPLY_RULES evaluates and where it finds it: rules/rule-book.ts (the rule book fills it).
export type { RuleEntry, RuleMatcher, RuleSource } from '../rules/rule-book.ts';
