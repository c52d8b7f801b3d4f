import { isObject } from '@weir/pdl';
import { defaultSerde } from '../kafka/serdes.ts';

/**
 * Turns a submitted record into the latest form (spec: Versioning; architecture: Compatibility)
 * and applies the documented defaults, before validation. Anything it does not recognise is left
 * as it is for the schema to report.
 */
type Json = Record<string, unknown>;

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

/** Rule: `enabled` defaults to true; `datamodel` (earlier form) is kept as given. */
export function latestRule(record: Json): Json {
  return { ...record, enabled: record.enabled ?? true };
}

export function latestPipeline(record: Json): Json {
  return record;
}
