import { isObject } from '@weir/pdl';
import { configKinds, defaultSerde } from '@weir/contract';
import type { ResourceKind, SubmittedRecord } from './resource-kind.ts';

// The stored shape is the API's contract (@weir/contract: resources.ts).
export type { StoredTopology, TopicBinding } from '@weir/contract';

/**
 * The latest form (spec: Versioning): `input` as a topic name and `output` as topic names (earlier
 * form) become objects; serdes default to the string serde; `group` defaults to `default`, `enabled`
 * to true. Anything else is left for the schema to report.
 */
export function latestTopology(record: SubmittedRecord): SubmittedRecord {
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
    output: Array.isArray(record.output) ? record.output.map(endpoint) : (record.output ?? []),
  };
}

export const topologyKind: ResourceKind = {
  ...configKinds.topologies,
  latest: latestTopology,
};
