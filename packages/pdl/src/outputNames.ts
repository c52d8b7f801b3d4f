import type { JsonObject } from './values.ts';

/**
 * The names and shapes of the fields the engine adds (pdl.md, "Output names"): Weir's (`_rule`,
 * `_aggregation`, `_temporal`) or the original product's (`padasRule`, `padasAggregation`,
 * `padasTemporal`), chosen by the setting `weir.output.names`.
 */
export type OutputNames = 'weir' | 'original';

export const outputKeys = {
  weir: { rule: '_rule', aggregation: '_aggregation', temporal: '_temporal' },
  original: { rule: 'padasRule', aggregation: 'padasAggregation', temporal: 'padasTemporal' },
} as const;

let processNames: OutputNames = 'weir';

/** The names of this process (a node and each of its stream workers set it from the setting at start). */
export function setOutputNames(names: OutputNames): void {
  processNames = names;
}

export function outputNames(): OutputNames {
  return processNames;
}

const own = (target: JsonObject, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
};

/**
 * Weir's `_aggregation` as the original's `padasAggregation`: `{groupBy?, field?, valueCount?,
 * result, eventCount}`, where `result` holds, per field, the counts (event_count: per group value;
 * value_count: per distinct value) or the value (value_sum, value_avg). `groupBy` only with group_by.
 */
export function originalAggregation(weir: JsonObject): JsonObject {
  const out: JsonObject = {};
  const groupBy = weir.groupBy as JsonObject;
  const grouped = Object.keys(groupBy).length > 0;
  if (grouped) out.groupBy = groupBy;
  const result: JsonObject = {};
  switch (weir.function) {
    case 'event_count':
      for (const [field, value] of Object.entries(groupBy))
        own(result, field, { [typeof value === 'string' ? value : JSON.stringify(value)]: weir.eventCount });
      break;
    case 'value_count': {
      const field = (weir.fields as string[]).join(',');
      out.field = field;
      out.valueCount = weir.valueCount;
      own(result, field, weir.values);
      break;
    }
    default:
      out.field = weir.field;
      own(result, weir.field as string, weir.value);
  }
  out.result = result;
  out.eventCount = weir.eventCount;
  return out;
}

/** Weir's `_temporal` as the original's `padasTemporal`: `{groupBy?, result: {<query>: [events]}}`. */
export function originalTemporal(weir: JsonObject): JsonObject {
  const groupBy = weir.groupBy as JsonObject;
  return Object.keys(groupBy).length > 0 ? { groupBy, result: weir.matches } : { result: weir.matches };
}
