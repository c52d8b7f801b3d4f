import type { StoredRule } from '@weir/contract';
import { missingRules, tasksRunBy, type RunScope } from './missing-rules.ts';
import { ruleMetricNames } from './rule-metrics.ts';

/**
 * Warns once about each rule an APPLY_RULES task of the node's group lists but that does not exist:
 * the engine skips such a rule on every event (counted in `weir_rules_skipped_total`, reason
 * `missing`), so without this line a detection would silently never fire. A reference that is
 * fixed and breaks again is logged again. Runs in the main thread: one line per node, not per worker.
 */
export class MissingRuleLog {
  readonly #group: string;
  readonly #warn: (message: string) => void;
  #logged = new Set<string>();

  constructor(group: string, warn: (message: string) => void) {
    this.#group = group;
    this.#warn = warn;
  }

  check(snapshot: RunScope & { readonly rules: readonly StoredRule[] }): void {
    const tasks = tasksRunBy(this.#group, snapshot);
    const now = missingRules(tasks, new Set(snapshot.rules.map((r) => r.id))).map((r) => r.message);
    for (const message of now)
      if (!this.#logged.has(message))
        this.#warn(`${message}; APPLY_RULES skips it (counted in ${ruleMetricNames.rulesSkipped}, reason missing)`);
    this.#logged = new Set(now);
  }
}
