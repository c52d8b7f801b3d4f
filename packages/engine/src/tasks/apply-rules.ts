import { cloneJson, eventOf, setOwn } from './event-values.ts';
import type { JsonObject, RuleEntry, RuleSource, TaskFactory, TaskRecord } from './task-function.ts';
import { failure, nothing } from './task-results.ts';

interface ApplyRulesDefinition {
  readonly rules: readonly string[];
  readonly matchAll: boolean;
}

const noRules: RuleSource = { get: () => undefined };

/** The rule's output plus `_rule: {id, name, annotations}` (pdl.md, "Rules and alerts"); a copy when the output is shared. */
function alert(output: JsonObject, rule: RuleEntry, copy: boolean): JsonObject {
  const out = copy ? (cloneJson(output) as JsonObject) : { ...output };
  setOwn(out, '_rule', { id: rule.id, name: rule.name, annotations: [...rule.annotations] });
  return out;
}

/**
 * APPLY_RULES (tasks.md): event → one alert per matching enabled rule, in the listed order (only
 * the first when `matchAll` is false). Rules are looked up per record, so rule changes apply at
 * once; disabled and missing rules are skipped and counted. No match: nothing goes further.
 */
export const applyRules: TaskFactory = (definition, task, env) => {
  const d = definition as unknown as ApplyRulesDefinition;
  const ids = [...d.rules];
  const rules = env.rules ?? noRules;
  const counters = env.counters;
  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const context = { timestamp: record.timestamp };
      let alerts: TaskRecord[] | null = null;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as string;
        const rule = rules.get(id);
        if (rule === undefined || !rule.enabled) {
          counters?.ruleSkipped?.(task, id, rule === undefined ? 'missing' : 'disabled');
          continue;
        }
        // a query-only rule returns the event itself: every alert after the first gets its own copy
        if (rule.compiled.hasCorrelation) {
          for (const output of rule.compiled.feed(event, context)) {
            (alerts ??= []).push({ value: alert(output, rule, alerts.length > 0), timestamp: record.timestamp });
            if (!d.matchAll) break;
          }
        } else {
          const output = rule.compiled.run(event, context);
          if (output !== null) (alerts ??= []).push({ value: alert(output, rule, alerts.length > 0), timestamp: record.timestamp });
        }
        if (!d.matchAll && alerts !== null) break;
      }
      return alerts === null ? nothing : { kind: 'alerts', records: alerts };
    },
  };
};
