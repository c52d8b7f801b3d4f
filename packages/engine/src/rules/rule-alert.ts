import { outputKeys, outputNames, setOwn } from '@weir/pdl';
import type { RuleEntry } from './rule-book.ts';

/** An event or alert (the tasks' JsonObject). */
type JsonObject = Record<string, unknown>;

/**
 * The rule an alert carries (pdl.md, "Rules and alerts"): `_rule: {id, name, annotations}`, or with
 * `weir.output.names=original` the original's `padasRule: {id, name, description, pdl, annotations,
 * datamodel}` (missing description and datamodel are "").
 */
export function ruleValue(rule: RuleEntry): [string, JsonObject] {
  if (outputNames() === 'original') {
    return [
      outputKeys.original.rule,
      {
        id: rule.id,
        name: rule.name,
        description: rule.description ?? '',
        pdl: rule.pdl ?? '',
        annotations: [...rule.annotations],
        datamodel: rule.datamodel ?? '',
      },
    ];
  }
  return [outputKeys.weir.rule, { id: rule.id, name: rule.name, annotations: [...rule.annotations] }];
}

/** What each alert was copied from (withRule), for copiedFrom. */
const copies = new WeakMap<JsonObject, JsonObject>();

/** A copy of `event` (its own keys; nested values shared) with the rule added. */
export function withRule(event: JsonObject, rule: RuleEntry): JsonObject {
  const out = { ...event };
  const [key, value] = ruleValue(rule);
  setOwn(out, key, value);
  copies.set(out, event);
  return out;
}

/**
 * The event an alert was copied from by withRule (undefined for any other object): the alerts
 * of one event share its JSON bytes (record-codec.ts's jsonBytes checks that the copy still has the
 * event's keys and values before it takes the bytes).
 */
export const copiedFrom = (alert: JsonObject): JsonObject | undefined => copies.get(alert);
