import type { StoredRule } from '@weir/contract';
import type { LookupResolver } from '@weir/pdl';
import { RuleBook } from '../rules/rule-book.ts';
import { RuleMatches } from '../rules/rule-metrics.ts';
import { processBatch, type ProcessEnv } from '../stream/process/record-processor.ts';
import type { FetchedRecord } from '../stream/records.ts';
import { PartitionedStateStore } from '../stream/state/partitioned-state.ts';
import type { StreamPlan, TopologyPlan } from '../stream/topology-plan.ts';
import { WorkerStats } from '../stream/worker-stats.ts';
import { compileTask } from '../tasks/index.ts';

/** An alert a backtest raised: its id (`_alert.id`, as the alerts topic would carry it), its rule and the alert itself. */
export interface BacktestAlert {
  readonly id: string;
  readonly rule: string;
  readonly alert: Record<string, unknown>;
}

/** Where the evaluator's alerts and its virtual repartition topic are named (never written: nothing leaves the process). */
const alertsTopic = '(backtest alerts)';
const repartition = '(backtest repartition)';

/**
 * The engine's own processing stage over rules, without Kafka (docs/detection-as-code.md,
 * "Backtests over Kafka"): one APPLY_RULES task (matchAll) over `rules`, compiled by the engine's
 * RuleBook and task compiler in engine mode, run by the record processor. A correlation's events
 * are routed as the live engine routes them, to the partition of their group among `partitions`
 * (the repartition topic of a live stage has the input topic's partition count), and resumed at
 * once with that partition's state: each partition keeps its own stream time, as a live stage
 * partition does. So the alerts and their ids (rule id + source topic/partition/offset) are the
 * ones the live engine writes to its alerts topic for the same records in the same order.
 */
export class BacktestEvaluator {
  readonly #plan: StreamPlan;
  readonly #state = new PartitionedStateStore();
  readonly #env: ProcessEnv;
  #routedOffset = 0n;
  /** Records the stage could not use (decode failures, task failures), one line each. */
  readonly warnings: string[] = [];
  deadLetters = 0;

  constructor(rules: readonly StoredRule[], lookups: LookupResolver, input: string, partitions: number) {
    const book = new RuleBook(this.#state);
    book.update(rules, lookups);
    const task = compileTask(
      {
        id: 0,
        name: 'backtest',
        function: 'APPLY_RULES',
        definition: { rules: rules.map((r) => r.id), matchAll: true },
      },
      { rules: book, lookups, routeCorrelations: true, stateStore: this.#state },
    );
    const topics = { repartition, changelog: '(backtest changelog)' };
    const topology: TopologyPlan = {
      id: 0,
      name: 'backtest',
      input,
      valueType: 'String',
      outputs: [],
      tasks: [task],
      stages: new Map([[0, topics]]),
      ruleMatches: new RuleMatches(),
    };
    for (let p = 0; p < partitions; p++) this.#state.open(repartition, p, topics.changelog);
    this.#plan = {
      version: 0,
      byInput: new Map([[input, [topology]]]),
      inputTopics: [input],
      outputTopics: [],
      stages: new Map([[repartition, { topology, taskIndex: 0, topics }]]),
    };
    this.#env = {
      alertsTopic,
      stats: new WorkerStats(),
      stagePartitions: new Map([[repartition, Math.max(1, partitions)]]),
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
        else if (o.topic === repartition)
          pending.push({
            topic: repartition,
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
