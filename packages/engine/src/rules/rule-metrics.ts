/**
 * The names of the rule metrics (part of stream/metric-names.ts's `metricNames`, where every
 * metric name of the engine is listed): alerts per rule, and the rules APPLY_RULES skipped, per
 * rule and reason (missing, disabled).
 */
export const ruleMetricNames = {
  ruleMatches: 'weir_rule_matches_total',
  rulesSkipped: 'weir_rules_skipped_total',
  /** A rule's suppression, per outcome: `suppressed` (counted, not written), `duplicate` (an input record read again), `late` (a window opened after its close). */
  ruleSuppressed: 'weir_rule_suppressed_total',
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
  /** `rule\0outcome` → count. */
  readonly #suppressed = new Map<string, number>();

  /** The hook the tasks are compiled with. */
  readonly ruleMatched = (_task: unknown, ruleId: string): void => {
    this.#counts.set(ruleId, (this.#counts.get(ruleId) ?? 0) + 1);
  };

  /** The hook of a rule's suppression (TaskCounters.ruleSuppressed). */
  readonly ruleSuppressed = (_task: unknown, ruleId: string, outcome: string): void => {
    const key = `${ruleId}\u0000${outcome}`;
    this.#suppressed.set(key, (this.#suppressed.get(key) ?? 0) + 1);
  };

  /** Adds the matches (and suppressed alerts) since the last call to their metrics and starts over. */
  drainInto(stats: MetricCounts): void {
    if (this.#counts.size > 0) {
      for (const [ruleId, count] of this.#counts) stats.add(ruleMetricNames.ruleMatches, [ruleId], count);
      this.#counts.clear();
    }
    if (this.#suppressed.size > 0) {
      for (const [key, count] of this.#suppressed) {
        const at = key.lastIndexOf('\u0000');
        stats.add(ruleMetricNames.ruleSuppressed, [key.slice(0, at), key.slice(at + 1)], count);
      }
      this.#suppressed.clear();
    }
  }
}
