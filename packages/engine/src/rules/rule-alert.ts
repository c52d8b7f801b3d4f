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

/** A copy of `event` with the rule added. */
export function withRule(event: JsonObject, rule: RuleEntry): JsonObject {
  const out = { ...event };
  const [key, value] = ruleValue(rule);
  setOwn(out, key, value);
  return out;
}
