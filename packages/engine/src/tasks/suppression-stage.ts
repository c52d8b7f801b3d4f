import type { RuleSuppression, SuppressionRecord } from '../rules/rule-suppression.ts';
import type {
  JsonObject,
  RoutedRecord,
  RuleEntry,
  TaskCounters,
  TaskIdentity,
  TaskRecord,
  TaskResult,
} from './task-function.ts';
import { nothing } from './task-results.ts';

/**
 * The suppression stage of APPLY_RULES (docs/alerts.md, "Suppression"): in the stream engine an
 * alert of a rule with a suppression is routed, like a correlation's event, to the partition of
 * its field values (the task's repartition topic), and resumed there at this stage (`pdlStage`
 * -1), where the rule's RuleSuppression keeps or counts it on that partition's state.
 */
export const suppressionStage = -1;

type SuppressedRule = RuleEntry & { readonly suppression: RuleSuppression };

/** The event time of an alert: its `_time`, else its record timestamp. */
function alertTime(alert: JsonObject, timestamp: number): number {
  const time = alert['_time'];
  return typeof time === 'number' && Number.isFinite(time) ? time : timestamp;
}

/** An alert on its way to its suppression window's partition. */
export function suppressionRoute(rule: SuppressedRule, alert: JsonObject, timestamp: number): RoutedRecord {
  return {
    stage: `rule:${rule.id}`,
    pdlStage: suppressionStage,
    key: rule.suppression.keyOf(alert),
    event: alert,
    time: alertTime(alert, timestamp),
    timestamp,
  };
}

/** Update records (alerts topic only) of closed windows, as alerts of `rule`. */
export function suppressionUpdates(rule: RuleEntry, records: readonly SuppressionRecord[]): TaskRecord[] {
  return records.map((r) => ({ value: r.value, timestamp: r.timestamp, rule, alertOverride: r.override }));
}

/**
 * A routed alert at its window's partition: written now when it is the first of its window, else
 * counted (once per input record); with the update records of the windows its time closed. A rule
 * that lost its suppression since the alert was routed writes it as it is.
 */
export function resumeSuppression(
  rule: RuleEntry,
  routed: RoutedRecord,
  task: TaskIdentity,
  counters: TaskCounters | undefined,
): TaskResult {
  if (rule.suppression === undefined)
    return { kind: 'alerts', records: [{ value: routed.event, timestamp: routed.timestamp, rule }] };
  const offer = rule.suppression.offer({
    alert: routed.event,
    time: routed.time,
    timestamp: routed.timestamp,
    source: routed.origin,
  });
  const updates = suppressionUpdates(rule, offer.updates);
  if (offer.kind !== 'kept') counters?.ruleSuppressed?.(task, rule.id, offer.kind);
  else if (offer.late) counters?.ruleSuppressed?.(task, rule.id, 'late');
  const records: TaskRecord[] =
    offer.kind === 'kept'
      ? [{ value: offer.record.value, timestamp: offer.record.timestamp, rule, alertOverride: offer.record.override }]
      : [];
  if (records.length === 0 && updates.length === 0) return nothing;
  return updates.length === 0 ? { kind: 'alerts', records } : { kind: 'alerts', records, updates };
}

/** Whether a rule entry has a suppression. */
export function suppresses(rule: RuleEntry): rule is SuppressedRule {
  return rule.suppression !== undefined;
}
