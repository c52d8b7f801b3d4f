import type { StoredRule } from '@weir/contract';
import type { LookupResolver } from '@weir/pdl';
import { RuleBook } from '../rules/rule-book.ts';
import { RuleMatches } from '../rules/rule-metrics.ts';
import { processBatch, type ProcessEnv } from '../stream/process/record-processor.ts';
import type { FetchedRecord } from '../stream/records.ts';
import { PartitionedStateStore } from '../stream/state/partitioned-state.ts';
import type { SerdeType } from '../kafka/serdes.ts';
import type { StageTopics } from '../stream/repartition.ts';
import type { StreamPlan, TopologyPlan } from '../stream/topology-plan.ts';
import { WorkerStats } from '../stream/worker-stats.ts';
import { compileTask, type CompiledTask, type TaskSpec } from '../tasks/index.ts';

/** An alert a backtest raised: its id (`_alert.id`, as the alerts topic would carry it), its rule and the alert itself. */
export interface BacktestAlert {
  readonly id: string;
  readonly rule: string;
  readonly alert: Record<string, unknown>;
}

/** Where the evaluator's alerts and its virtual repartition topics are named (never written: nothing leaves the process). */
const alertsTopic = '(backtest alerts)';
const stageTopicsOf = (index: number) => ({
  repartition: `(backtest repartition ${index})`,
  changelog: `(backtest changelog ${index})`,
});

/**
 * What a backtest runs: tasks in order (a pipeline's; a topology's pipelines', one after another;
 * or one APPLY_RULES task over candidate rules), the rules its APPLY_RULES tasks resolve, and how
 * the input's values are decoded (a topology's input value serde; String otherwise).
 */
export interface BacktestSubject {
  readonly tasks: readonly TaskSpec[];
  readonly rules: readonly StoredRule[];
  readonly valueType?: SerdeType;
  /** Why it cannot run (the live engine then dead-letters every record): a task missing or that does not compile. */
  readonly failure?: string;
}

/** Rules as a subject: one APPLY_RULES task over them, every match an alert (matchAll). */
export function rulesSubject(rules: readonly StoredRule[]): BacktestSubject {
  return {
    tasks: [
      {
        id: 0,
        name: 'backtest',
        function: 'APPLY_RULES',
        definition: { rules: rules.map((r) => r.id), matchAll: true },
      },
    ],
    rules,
  };
}

/**
 * The engine's own processing stage, without Kafka (docs/detection-as-code.md, "Backtests over
 * Kafka"): the subject's tasks compiled by the engine's RuleBook and task compiler in engine mode,
 * run by the record processor as one topology reading `input`. Each task that holds a correlation
 * is a stage, as in the live engine (topology-plan.ts): an event reaching it is routed to the
 * partition of its group among `partitions` (a live repartition topic has the input topic's
 * partition count) and resumed at once with that partition's state: each partition keeps its own
 * stream time, as a live stage partition does. So the alerts and their ids (rule id + source
 * topic/partition/offset) are the ones the live engine writes to its alerts topic for the same
 * records in the same order.
 */
export class BacktestEvaluator {
  readonly #plan: StreamPlan;
  readonly #state = new PartitionedStateStore();
  readonly #env: ProcessEnv;
  #routedOffset = 0n;
  /** Records the stage could not use (decode failures, task failures), one line each. */
  readonly warnings: string[] = [];
  deadLetters = 0;

  constructor(subject: BacktestSubject, lookups: LookupResolver, input: string, partitions: number) {
    const book = new RuleBook(this.#state);
    book.update(subject.rules, lookups);
    const env = { rules: book, lookups, routeCorrelations: true, stateStore: this.#state };
    let failure = subject.failure;
    const tasks: CompiledTask[] = [];
    for (const spec of failure === undefined ? subject.tasks : []) {
      try {
        tasks.push(compileTask(spec, env));
      } catch (err) {
        failure = `task ${spec.id} (${spec.name}) does not compile: ${(err as Error).message}`;
        tasks.length = 0;
        break;
      }
    }
    const stages = new Map<number, StageTopics>();
    tasks.forEach((task, index) => {
      if (task.resume !== undefined && task.holdsCorrelation?.() !== false) stages.set(index, stageTopicsOf(index));
    });
    const topology: TopologyPlan = {
      id: 0,
      name: 'backtest',
      input,
      valueType: subject.valueType ?? 'String',
      outputs: [],
      tasks,
      ...(failure !== undefined ? { failure } : {}),
      stages,
      ruleMatches: new RuleMatches(),
    };
    const count = Math.max(1, partitions);
    for (const topics of stages.values())
      for (let p = 0; p < count; p++) this.#state.open(topics.repartition, p, topics.changelog);
    this.#plan = {
      version: 0,
      byInput: new Map([[input, [topology]]]),
      inputTopics: [input],
      outputTopics: [],
      stages: new Map([...stages].map(([taskIndex, topics]) => [topics.repartition, { topology, taskIndex, topics }])),
    };
    this.#env = {
      alertsTopic,
      stats: new WorkerStats(),
      stagePartitions: new Map([...stages.values()].map((topics) => [topics.repartition, count])),
    };
  }

  /** Runs one input record (and the routed records it gives, at once) through the stage; returns its alerts. */
  record(record: FetchedRecord): BacktestAlert[] {
    const alerts: BacktestAlert[] = [];
    let pending: FetchedRecord[] = [record];
    while (pending.length > 0) {
      const { out, warnings } = processBatch(pending, this.#plan, this.#state, this.#env);
      for (const w of warnings) this.warnings.push(w);
      pending = [];
      for (const o of out) {
        if (o.topic === alertsTopic) alerts.push(alertOf(o.value!));
        else if (this.#plan.stages.has(o.topic))
          pending.push({
            topic: o.topic,
            partition: o.partition!,
            offset: this.#routedOffset++,
            key: o.key!,
            value: o.value!,
            timestamp: o.timestamp!,
            headers: new Map(),
            metadata: {},
            commit: noCommit,
          } as unknown as FetchedRecord);
        else this.deadLetters++;
      }
    }
    // the changelog is never written: what it would hold is dropped so that it does not pile up
    this.#state.drain([]);
    return alerts;
  }
}

const noCommit = (): void => {};

function alertOf(value: Buffer | string): BacktestAlert {
  const alert = JSON.parse(value.toString()) as Record<string, unknown>;
  const meta = alert['_alert'] as { id?: unknown } | undefined;
  const rule = alert['_rule'] as { id?: unknown } | undefined;
  return { id: String(meta?.id ?? ''), rule: String(rule?.id ?? ''), alert };
}
