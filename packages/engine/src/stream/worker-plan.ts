import { metricNames } from './metric-names.ts';
import type { ConfigSnapshot } from './config-snapshot.ts';
import { deadLetterTopic } from './process/dead-letter.ts';
import { LookupTables } from '../rules/lookup-tables.ts';
import type { ColumnIndexSource } from '../rules/shared-lookup.ts';
import { RuleBook } from '../rules/rule-book.ts';
import type { PartitionedStateStore } from './state/partitioned-state.ts';
import { buildPlan, TaskCache, type StreamPlan } from './topology-plan.ts';
import type { WorkerStats } from './worker-stats.ts';

/** The plan a worker has before its first configuration: nothing to read. */
export const emptyPlan: StreamPlan = {
  version: 0,
  byInput: new Map(),
  inputTopics: [],
  outputTopics: [],
  stages: new Map(),
};

/**
 * A stream worker's compiler of configuration snapshots: its rule book, lookups and compiled tasks
 * (reused while unchanged), with the worker's correlation state. Gives the plan and what to warn about.
 */
export class WorkerPlan {
  readonly #rules: RuleBook;
  readonly #lookups = new LookupTables();
  readonly #tasks = new TaskCache();
  readonly #env: { readonly group: string; readonly groupId: string; readonly stats: WorkerStats };
  readonly #stateStore: PartitionedStateStore;

  readonly #indexes: ColumnIndexSource | undefined;

  /** `indexes`: where the shared lookups' column indexes come from (the main thread's one copy; absent: built here). */
  constructor(
    env: {
      readonly group: string;
      readonly groupId: string;
      readonly stats: WorkerStats;
      readonly indexes?: ColumnIndexSource;
    },
    stateStore: PartitionedStateStore,
  ) {
    this.#env = env;
    this.#indexes = env.indexes;
    this.#stateStore = stateStore;
    this.#rules = new RuleBook(stateStore);
  }

  compile(snapshot: ConfigSnapshot): { plan: StreamPlan; warnings: string[] } {
    if (snapshot.sharedLookups) this.#lookups.share(snapshot.sharedLookups, this.#indexes);
    else if (snapshot.lookups) this.#lookups.update(snapshot.lookups);
    this.#rules.update(snapshot.rules, this.#lookups);
    const warnings = [...this.#rules.broken].map(([id, reason]) => `rule ${id} is skipped: ${reason}`);
    const stats = this.#env.stats;
    const plan = buildPlan(
      snapshot,
      {
        group: this.#env.group,
        groupId: this.#env.groupId,
        stateStore: this.#stateStore,
        rules: this.#rules,
        lookups: this.#lookups,
        counters: {
          taskError: (task) => stats.add(metricNames.taskErrors, [task.name]),
          ruleSkipped: (_task, ruleId, reason) => stats.add(metricNames.rulesSkipped, [ruleId, reason]),
        },
      },
      this.#tasks,
    );
    for (const [, topologies] of plan.byInput)
      for (const t of topologies)
        if (t.failure)
          warnings.push(`topology ${t.name} cannot run: ${t.failure}; its records go to ${deadLetterTopic(t.input)}`);
    return { plan, warnings };
  }
}
