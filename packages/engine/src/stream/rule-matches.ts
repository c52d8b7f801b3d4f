import type { TaskCounters } from '../tasks/index.ts';
import { metricNames } from './metric-names.ts';
import type { WorkerStats } from './worker-stats.ts';

/**
 * Rule matches as the APPLY_RULES tasks report them (TaskCounters.ruleMatched: one per alert they
 * raise), tallied until the record processor moves them into the worker's stats with the alerts
 * it writes. One tally per TaskCache: the compiled tasks keep reporting to it across plans.
 */
export class RuleMatches {
  readonly #counts = new Map<string, number>();

  /** The hook the tasks are compiled with. */
  readonly ruleMatched: NonNullable<TaskCounters['ruleMatched']> = (_task, ruleId) => {
    this.#counts.set(ruleId, (this.#counts.get(ruleId) ?? 0) + 1);
  };

  /** Adds the matches since the last call to `weir_rule_matches_total` and starts over. */
  drainInto(stats: WorkerStats): void {
    if (this.#counts.size === 0) return;
    for (const [ruleId, count] of this.#counts) stats.add(metricNames.ruleMatches, [ruleId], count);
    this.#counts.clear();
  }
}
