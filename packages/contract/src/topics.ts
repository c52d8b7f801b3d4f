import type { FromSchema } from './from-schema.ts';
import { serdeConfiguration } from './serdes.ts';
import { topicNameSchema } from './topic-names.ts';

/**
 * The request bodies of the topic endpoints (spec: Topics, Broker topic): create, produce, consume,
 * and the start positions of consumers and live tails.
 */

/** Most topics one bulk request may create. */
export const maxTopicsPerRequest = 1000;

/** Unknown fields are violations too, so that a typo (`partitions`) does not silently create a one-partition topic. */
export const topicSpecSchema = {
  type: 'object',
  description: 'an object with name, numberOfPartitions, replicationFactor and options',
  properties: {
    name: topicNameSchema,
    numberOfPartitions: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 },
    replicationFactor: { type: 'integer', minimum: 1, maximum: 2 ** 15 - 1 },
    options: {
      type: ['object', 'null'],
      description: 'an object of setting name to string value',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    compact: { type: 'boolean', description: 'earlier form of options["cleanup.policy"] = "compact"' },
  },
  required: ['name', 'numberOfPartitions', 'replicationFactor'],
  additionalProperties: false,
} as const;

/** A topic body as the schema accepts it (options values of any scalar type, the earlier form's `compact`). */
export type TopicBody = FromSchema<typeof topicSpecSchema>;

/** Bulk and the earlier array form: one invalid element fails the whole request. */
export const topicListSchema = {
  type: 'array',
  description: 'an array of topics',
  items: topicSpecSchema,
  maxItems: maxTopicsPerRequest,
} as const;

/** POST /api/topics: one topic, or (earlier form) an array of them. */
export const topicOrListSchema = { if: { type: 'array' }, then: topicListSchema, else: topicSpecSchema } as const;

export const topicParams = {
  type: 'object',
  properties: { name: { type: 'string' } },
} as const;

/**
 * `?index=N`, typed: the API's validator turns the text into a number (a query value arrives as
 * text). The title is the violation's hint: `querystring.index must be an integer >= 0 (the first
 * message to return), found '-1'`.
 */
export const consumeQuery = {
  type: 'object',
  properties: {
    index: {
      type: 'integer',
      minimum: 0,
      maximum: 999_999_999,
      title: 'the first message to return',
      description: 'the first message to return (an integer >= 0; default 0)',
    },
  },
} as const;
export type ConsumeQuery = FromSchema<typeof consumeQuery>;

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
export type ProduceRequest = FromSchema<typeof produceBody>;

/** `?offsets=true`: the answer also names the partition and offset of each message (docs/api.md). */
export const produceQuery = {
  type: 'object',
  properties: {
    offsets: { type: 'boolean', title: 'true to have the partition and offset of each message in the answer' },
  },
} as const;
export type ProduceQuery = FromSchema<typeof produceQuery>;

/** Start positions beyond the spec's earliest/latest (docs/api.md): an offset, a time, one partition. */
export const startFields = {
  startOffset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  startTimestamp: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  partition: { type: 'integer', minimum: 0, maximum: 1_000_000 },
} as const;

/** The maxima are a node's settings (weir.topics.consume.max-events, …max-timeout-seconds), so the schema is built per node. */
export function consumeBody(maxima: { readonly maxEvents: number; readonly maxTimeoutSeconds: number }) {
  return {
    type: 'object',
    properties: {
      keyDeserializer: { type: 'string', enum: serdeConfiguration.deserializer },
      valueDeserializer: { type: 'string', enum: serdeConfiguration.deserializer },
      maxEvents: { type: 'integer', minimum: 1, maximum: maxima.maxEvents },
      maxTimeoutSeconds: { type: 'integer', minimum: 1, maximum: maxima.maxTimeoutSeconds },
      offset: { type: 'string', enum: ['earliest', 'latest'] },
      ...startFields,
      untilEnd: {
        type: 'boolean',
        description: 'complete once the partitions read hold nothing more than when the consumer was created',
      },
    },
    additionalProperties: false,
  } as const;
}
/** POST /api/topics/{name}/consume. */
export type ConsumeRequest = FromSchema<ReturnType<typeof consumeBody>>;
export type StartPositionFields = Pick<ConsumeRequest, 'offset' | 'startOffset' | 'startTimestamp' | 'partition'>;
