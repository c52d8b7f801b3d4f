import type { Settings } from '../config/settings.ts';
import { serdeConfiguration } from '../kafka/serdes.ts';
import type { StartPosition } from '../kafka/start-position.ts';

/**
 * Request schemas of the produce and consume endpoints (spec: Topics). Topic bodies: kafka/topic-spec.ts
 * (the schema and the spec's wording of its violations).
 */
export const topicParams = {
  type: 'object',
  properties: { name: { type: 'string' } },
} as const;

/** `?index=N`: checked by the route, whose message says what an index is. */
export const consumeQuery = {
  type: 'object',
  properties: { index: { type: 'string', description: 'the first message to return (an integer >= 0; default 0)' } },
} as const;

/** Defaults of the consumer-create fields, none of which is required (spec: "not shown"). */
export const consumeDefaults = { maxEvents: 1000, maxTimeoutSeconds: 60, offset: 'earliest' } as const;

export const produceBody = {
  type: 'object',
  required: ['messages'],
  properties: {
    keySerializer: { type: 'string', enum: serdeConfiguration.serializer },
    valueSerializer: { type: 'string', enum: serdeConfiguration.serializer },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['value'],
        properties: {
          key: {},
          value: {},
          headers: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 100 },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

/** The maxima come from the node's settings, so the schema is built per node. */
export function consumeBody(settings: Settings) {
  return {
    type: 'object',
    properties: {
      keyDeserializer: { type: 'string', enum: serdeConfiguration.deserializer },
      valueDeserializer: { type: 'string', enum: serdeConfiguration.deserializer },
      maxEvents: { type: 'integer', minimum: 1, maximum: settings.get('weir.topics.consume.max-events') },
      maxTimeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: settings.get('weir.topics.consume.max-timeout-seconds'),
      },
      offset: { type: 'string', enum: ['earliest', 'latest'] },
      ...startFields,
    },
    additionalProperties: false,
  } as const;
}

/** Start positions beyond the spec's earliest/latest (docs/api.md): an offset, a time, one partition. */
export const startFields = {
  startOffset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  startTimestamp: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  partition: { type: 'integer', minimum: 0, maximum: 1_000_000 },
} as const;

export interface StartFields {
  readonly offset?: 'earliest' | 'latest';
  readonly startOffset?: number;
  readonly startTimestamp?: number;
  readonly partition?: number;
}

/** The start position the fields ask for; more than one of offset/startOffset/startTimestamp → an error text. */
export function startPosition(fields: StartFields, fallback: 'earliest' | 'latest'): StartPosition | string {
  const given = (['offset', 'startOffset', 'startTimestamp'] as const).filter((k) => fields[k] !== undefined);
  if (given.length > 1) return `give at most one of offset, startOffset and startTimestamp (found ${given.join(', ')})`;
  const partition = fields.partition;
  const on = partition === undefined ? {} : { partition };
  if (fields.startOffset !== undefined) return { kind: 'offset', offset: fields.startOffset, ...on };
  if (fields.startTimestamp !== undefined) return { kind: 'timestamp', timestamp: fields.startTimestamp, ...on };
  return { kind: fields.offset ?? fallback, ...on };
}
