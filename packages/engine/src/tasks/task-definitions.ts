import { isObject } from '@weir/pdl';

type Json = Record<string, unknown>;
/** A non-negative integer rule id (the original's rule ids were numbers) as its decimal text; anything else as given. */
export const ruleIdText = (v: unknown): unknown =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v;

/**
 * Task: a missing definition is `{}`; `delimeter` (the original's examples) becomes `delimiter`
 * unless both are given; integer rule ids in an APPLY_RULES `rules` list become their text.
 */
export function latestTask(record: Json): Json {
  let definition = record.definition ?? {};
  if (record.function === 'APPLY_RULES' && isObject(definition) && Array.isArray(definition.rules)) {
    definition = { ...definition, rules: definition.rules.map(ruleIdText) };
  }
  if (!isObject(definition) || !('delimeter' in definition) || 'delimiter' in definition)
    return { ...record, definition };
  const { delimeter, ...rest } = definition;
  return { ...record, definition: { ...rest, delimiter: delimeter } };
}
