import type { Offer, RuleSuppression, SuppressionRecord } from '../rules/rule-suppression.ts';
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

/**
 * An alert on its way to its suppression window's partition. Alerts of one input partition and
 * batch bundle (stream/process/route-bundles.ts): one that follows an alert of its window in the
 * bundle, not earlier than it, travels without its alert (it can only be counted).
 */
export function suppressionRoute(rule: SuppressedRule, alert: JsonObject, timestamp: number): RoutedRecord {
  const suppression = rule.suppression;
  const key = suppression.keyOf(alert);
  const time = alertTime(alert, timestamp);
  const window = suppression.windowOf(key, time);
  return {
    stage: `rule:${rule.id}`,
    pdlStage: suppressionStage,
    key,
    event: alert,
    time,
    timestamp,
    bundle: { group: suppression.spec, window: window.key, closeFloor: window.closeFloor },
  };
}

/** Update records (alerts topic only) of closed windows, as alerts of `rule`. */
export function suppressionUpdates(rule: RuleEntry, records: readonly SuppressionRecord[]): TaskRecord[] {
  return records.map((r) => ({ value: r.value, timestamp: r.timestamp, rule, alertOverride: r.override }));
}

/**
 * A routed alert at its window's partition: written now when it is the first of its window, else
 * counted (once per input record); with the update records of the windows its time closed. A rule
 * that lost its suppression since the alert was routed writes it as it is; an alert that travelled
 * without its alert behind one of its window (a bundle) is counted as suppressed when the rule's
 * suppression changed on the way (it was counted on that alert's window when it was raised).
 */
export function resumeSuppression(
  rule: RuleEntry,
  routed: RoutedRecord,
  task: TaskIdentity,
  counters: TaskCounters | undefined,
): TaskResult {
  if (routed.elided !== undefined && rule.suppression?.spec !== routed.elided.group) {
    counters?.ruleSuppressed?.(task, rule.id, 'suppressed');
    return nothing;
  }
  if (rule.suppression === undefined)
    return { kind: 'alerts', records: [{ value: routed.event, timestamp: routed.timestamp, rule }] };
  let offer: Offer;
  try {
    offer = rule.suppression.offer({
      alert: routed.elided ? undefined : routed.event,
      values: routed.key,
      time: routed.time,
      timestamp: routed.timestamp,
      source: routed.origin,
    });
  } catch (err) {
    // only a bundle made wrongly gets here (an alert left out that is needed): its input record goes to the dead letters
    return { kind: 'error', message: `suppression: ${(err as Error).message}` };
  }
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
