import { isObject } from '@weir/pdl';
import { defaultSerde, serdeConfiguration } from '../kafka/serdes.ts';
import { topicNameSchema } from '../kafka/topic-names.ts';
import { integerId, integerIdRule } from './ids.ts';
import { descriptionField, nameField, type ResourceKind, type SubmittedRecord } from './resource-kind.ts';

/** A topic with its serdes, as a topology names its input and outputs. */
export interface TopicBinding {
  readonly name: string;
  readonly keySerde: string;
  readonly valueSerde: string;
}

/** A topology as stored (spec: Topology), in its latest form. */
export interface StoredTopology {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
  readonly pipelines: readonly number[];
  readonly enabled: boolean;
  readonly group: string;
  readonly input: TopicBinding;
  readonly output: readonly TopicBinding[];
}

const serde = { type: 'string', enum: serdeConfiguration.serde } as const;
const topicEndpoint = {
  type: 'object',
  properties: { name: topicNameSchema, keySerde: serde, valueSerde: serde },
  required: ['name', 'keySerde', 'valueSerde'],
  additionalProperties: false,
} as const;

export const topologySchema = {
  type: 'object',
  properties: {
    id: integerId,
    name: nameField,
    description: descriptionField,
    pipelines: { type: 'array', items: integerId, maxItems: 1000 },
    enabled: { type: 'boolean' },
    group: { type: 'string', minLength: 1, maxLength: 256 },
    input: topicEndpoint,
    output: { type: 'array', items: topicEndpoint, maxItems: 100 },
  },
  required: ['id', 'name', 'pipelines', 'enabled', 'group', 'input', 'output'],
  additionalProperties: false,
} as const;

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
  path: 'topologies',
  collection: 'topologies',
  names: { one: 'topology', many: 'topologies' },
  idType: 'integer',
  idRule: integerIdRule,
  schema: topologySchema,
  latest: latestTopology,
};
