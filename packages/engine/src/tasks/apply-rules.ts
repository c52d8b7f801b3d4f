import { RuleIndex } from '@weir/pdl';
import { cloneJson, eventOf } from './event-values.ts';
import type {
  JsonObject,
  RoutedRecord,
  RuleEntry,
  RuleMatcher,
  RuleSource,
  TaskFactory,
  TaskRecord,
  TaskResult,
} from './task-function.ts';
import { withRule } from '../rules/rule-alert.ts';
import { failure, nothing } from './task-results.ts';
import {
  resumeSuppression,
  suppresses,
  suppressionRoute,
  suppressionStage,
  suppressionUpdates,
} from './suppression-stage.ts';

interface ApplyRulesDefinition {
  readonly rules: readonly string[];
  readonly matchAll: boolean;
}

const noRules: RuleSource = { get: () => undefined };

/** Builds an alert from a matching rule's output; reports the match (TaskCounters.ruleMatched). */
type Raise = (output: JsonObject, rule: RuleEntry, copy: boolean) => JsonObject;

/** The listed rules as last resolved, and the index over them. */
interface Resolved {
  readonly version: number | undefined;
  readonly entries: readonly (RuleEntry | undefined)[];
  /** Per position: what the index was built from (the compiled rule when enabled, else 'always': met to be counted as skipped). */
  readonly indexed: readonly (RuleMatcher | 'always')[];
  readonly index: RuleIndex;
}

const indexable = (entry: RuleEntry | undefined): RuleMatcher | 'always' =>
  entry !== undefined && entry.enabled ? entry.compiled : 'always';

/**
 * APPLY_RULES (tasks.md): event → one alert per matching enabled rule, in the listed order (only
 * the first when `matchAll` is false). Rules are resolved through the RuleSource, so rule changes
 * apply at once: on every record, or only when `RuleSource.version` changed; disabled and missing
 * rules are skipped and counted. The rules are indexed by RuleIndex (one required condition each):
 * an event only meets the rules it may match; correlation rules, and disabled and missing ones
 * (to be counted), are met by every event. No match: nothing goes further.
 */
export const applyRules: TaskFactory = (definition, task, env) => {
  const d = definition as unknown as ApplyRulesDefinition;
  const ids = [...d.rules];
  const rules = env.rules ?? noRules;
  const counters = env.counters;
  const route = env.routeCorrelations === true;
  let resolved: Resolved | null = null;
  /** The one place an alert is built: the rule's output plus `_rule` (or the original's `padasRule`, rule-alert.ts); a copy when the output is shared. */
  const alert: Raise = (output, rule, copy) => {
    counters?.ruleMatched?.(task, rule.id);
    return withRule(copy ? (cloneJson(output) as JsonObject) : output, rule);
  };

  /** The listed rules now; the index is rebuilt only when a compiled rule or its enabled flag changed. */
  function resolve(): Resolved {
    const version = rules.version;
    if (resolved !== null && version !== undefined && resolved.version === version) return resolved;
    if (resolved !== null) {
      const previous = resolved.entries;
      let same = true;
      for (let i = 0; i < ids.length && same; i++) same = rules.get(ids[i] as string) === previous[i];
      if (same) {
        if (resolved.version !== version) resolved = { ...resolved, version };
        return resolved;
      }
    }
    const entries = ids.map((id) => rules.get(id));
    const indexed = entries.map(indexable);
    const old = resolved;
    const index = old !== null && indexed.every((m, i) => m === old.indexed[i]) ? old.index : new RuleIndex(indexed);
    resolved = { version, entries, indexed, index };
    return resolved;
  }

  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const { entries, index } = resolve();
      const count = index.select(event);
      const selected = index.selected;
      const context = { timestamp: record.timestamp };
      let alerts: TaskRecord[] | null = null;
      let routes: RoutedRecord[] | null = null;
      for (let c = 0; c < count; c++) {
        const i = selected[c] as number;
        const rule = entries[i];
        if (rule === undefined || !rule.enabled) {
          counters?.ruleSkipped?.(task, ids[i] as string, rule === undefined ? 'missing' : 'disabled');
          continue;
        }
        // a query-only rule returns the event itself: a correlation's or suppressed rule's alert after the first gets its own copy
        if (rule.compiled.hasCorrelation && route && rule.compiled.route) {
          // engine mode: the correlation runs on its group's partition (resume); its alerts come from there
          const routed = rule.compiled.route(event, context);
          if (routed !== null) {
            (routes ??= []).push({
              stage: `rule:${rule.id}`,
              pdlStage: routed.stage,
              key: routed.key,
              event: routed.event,
              time: routed.time,
              timestamp: record.timestamp,
            });
          }
          continue;
        }
        if (rule.compiled.hasCorrelation) {
          for (const output of rule.compiled.feed(event, context)) {
            (alerts ??= []).push({ value: alert(output, rule, alerts.length > 0), timestamp: record.timestamp, rule });
            if (!d.matchAll) break;
          }
        } else {
          const output = rule.compiled.run(event, context);
          if (output !== null && route && suppresses(rule)) {
            // engine mode: the alert is kept or counted on the partition of its suppression window (resume)
            const value = alert(output, rule, alerts !== null || routes !== null);
            (routes ??= []).push(suppressionRoute(rule, value, record.timestamp));
            if (!d.matchAll) break;
          } else if (output !== null)
            // the alerts of one event share its nested values (each its own top-level object, the
            // writer serialises the event once for all): the pipeline copies them for a later task
            (alerts ??= []).push({ value: alert(output, rule, false), timestamp: record.timestamp, rule });
        }
        if (!d.matchAll && alerts !== null) break;
      }
      if (routes !== null) return { kind: 'alerts', records: alerts ?? [], routes };
      return alerts === null ? nothing : { kind: 'alerts', records: alerts };
    },
    resume(routed) {
      const rule = routed.stage.startsWith('rule:') ? rules.get(routed.stage.slice(5)) : undefined;
      if (rule === undefined || !rule.enabled) return nothing;
      if (routed.pdlStage === suppressionStage) return resumeSuppression(rule, routed, task, counters);
      if (!rule.compiled.resume) return nothing;
      const outputs = rule.compiled.resume({ stage: routed.pdlStage, event: routed.event, time: routed.time });
      if (route && suppresses(rule) && outputs.length > 0) {
        // a correlation's alerts go on to the partitions of their suppression windows
        const routes = outputs.map((o, i) => suppressionRoute(rule, alert(o, rule, i > 0), routed.timestamp));
        return { kind: 'alerts', records: [], routes };
      }
      return alertsOf(outputs, rule, routed.timestamp, alert);
    },
    prepare() {
      resolve();
    },
    holdsCorrelation: () =>
      ids.some((id) => {
        const rule = rules.get(id);
        return rule !== undefined && (rule.compiled.hasCorrelation || rule.suppression !== undefined);
      }),
    advanceBy(elapsedMs) {
      const records: TaskRecord[] = [];
      const routes: RoutedRecord[] = [];
      const updates: TaskRecord[] = [];
      for (const id of ids) {
        const rule = rules.get(id);
        if (rule === undefined || !rule.enabled) continue;
        if (rule.compiled.hasCorrelation && rule.compiled.advanceBy) {
          for (const output of rule.compiled.advanceBy(elapsedMs)) {
            const time = output['_time'];
            const timestamp = typeof time === 'number' && Number.isFinite(time) ? time : Date.now();
            const value = alert(output, rule, false);
            if (route && suppresses(rule)) routes.push(suppressionRoute(rule, value, timestamp));
            else records.push({ value, timestamp, rule });
          }
        }
        if (rule.suppression)
          for (const u of suppressionUpdates(rule, rule.suppression.advanceBy(elapsedMs))) updates.push(u);
      }
      if (records.length === 0 && routes.length === 0 && updates.length === 0) return nothing;
      return { kind: 'alerts', records, ...(routes.length ? { routes } : {}), ...(updates.length ? { updates } : {}) };
    },
  };
};

/** A resumed correlation's outputs as alerts, timestamped like the record that completed them. */
function alertsOf(outputs: readonly JsonObject[], rule: RuleEntry, timestamp: number, alert: Raise): TaskResult {
  if (outputs.length === 0) return nothing;
  return {
    kind: 'alerts',
    records: outputs.map((output, i) => ({ value: alert(output, rule, i > 0), timestamp, rule })),
  };
}
