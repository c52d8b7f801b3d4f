import { defaultSerde } from '../kafka/serdes.ts';

/**
 * Turns a submitted record into the latest form (spec: Versioning; architecture: Compatibility)
 * and applies the documented defaults, before validation. Anything it does not recognise is left
 * as it is for the schema to report.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Topology: `input` as a topic name and `output` as topic names (earlier form) become objects; serdes default to the string serde; `group` defaults to `default`, `enabled` to true. */
export function latestTopology(record: Json): Json {
  const endpoint = (v: unknown): unknown => {
    if (typeof v === 'string') return { name: v, keySerde: defaultSerde, valueSerde: defaultSerde };
    if (isObject(v)) return { ...v, keySerde: v.keySerde ?? defaultSerde, valueSerde: v.valueSerde ?? defaultSerde };
    return v;
  };
  return {
    ...record,
    pipelines: record.pipelines ?? [],
    enabled: record.enabled ?? true,
    group: record.group ?? 'default',
    input: endpoint(record.input),
    output: Array.isArray(record.output) ? record.output.map(endpoint) : record.output ?? [],
  };
}

/** A non-negative integer id (the original's rule ids were numbers) as its decimal text; anything else as given. */
const idText = (v: unknown): unknown => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v);

/**
 * Task: a missing definition is `{}`; `delimeter` (the original's examples) becomes `delimiter`
 * unless both are given; integer rule ids in an APPLY_RULES `rules` list become their text.
 */
export function latestTask(record: Json): Json {
  let definition = record.definition ?? {};
  if (record.function === 'APPLY_RULES' && isObject(definition) && Array.isArray(definition.rules)) {
    definition = { ...definition, rules: definition.rules.map(idText) };
  }
  if (!isObject(definition) || !('delimeter' in definition) || 'delimiter' in definition) return { ...record, definition };
  const { delimeter, ...rest } = definition;
  return { ...record, definition: { ...rest, delimiter: delimeter } };
}

/**
 * Rule: `enabled` defaults to true; `datamodel` (earlier form) is kept as given; an integer id (the
 * original's sample rules) is stored and answered as its decimal text: `1` → `"1"`.
 */
export function latestRule(record: Json): Json {
  return { ...record, id: idText(record.id), enabled: record.enabled ?? true };
}

export function latestPipeline(record: Json): Json {
  return record;
}
