import type { Settings } from '../config/settings.ts';
import { serdeConfiguration } from '../kafka/serdes.ts';

/**
 * Request schemas of the produce and consume endpoints (spec: Topics). Topic bodies are checked by
 * kafka/topic-spec.ts instead, because the spec fixes their error text.
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
        properties: { key: {}, value: {} },
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
      maxTimeoutSeconds: { type: 'integer', minimum: 1, maximum: settings.get('weir.topics.consume.max-timeout-seconds') },
      offset: { type: 'string', enum: ['earliest', 'latest'] },
    },
    additionalProperties: false,
  } as const;
}
