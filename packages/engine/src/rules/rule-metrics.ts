/**
 * The names of the rule metrics (part of stream/metric-names.ts's `metricNames`, where every
 * metric name of the engine is listed): alerts per rule, and the rules APPLY_RULES skipped, per
 * rule and reason (missing, disabled).
 */
export const ruleMetricNames = {
  ruleMatches: 'weir_rule_matches_total',
  rulesSkipped: 'weir_rules_skipped_total',
} as const;

/** Where the matches are added (the worker's stats, stream/worker-stats.ts). */
export interface MetricCounts {
  add(name: string, labels: readonly string[], delta?: number): void;
}

/**
 * Rule matches as the APPLY_RULES tasks report them (TaskCounters.ruleMatched: one per alert they
 * raise), tallied until the record processor moves them into the worker's stats with the alerts
 * it writes. One tally per TaskCache: the compiled tasks keep reporting to it across plans.
 */
export class RuleMatches {
  readonly #counts = new Map<string, number>();

  /** The hook the tasks are compiled with. */
  readonly ruleMatched = (_task: unknown, ruleId: string): void => {
    this.#counts.set(ruleId, (this.#counts.get(ruleId) ?? 0) + 1);
  };

  /** Adds the matches since the last call to `weir_rule_matches_total` and starts over. */
  drainInto(stats: MetricCounts): void {
    if (this.#counts.size === 0) return;
    for (const [ruleId, count] of this.#counts) stats.add(ruleMetricNames.ruleMatches, [ruleId], count);
    this.#counts.clear();
  }
}
