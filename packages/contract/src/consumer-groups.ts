import type { FromSchema } from './from-schema.ts';
import { listOf, responseShape } from './response-shape.ts';

/**
 * Consumer groups (docs/api.md → Consumer groups): the answers of the list, a group, its lag history
 * and an offset reset, and the reset's body. Each answer is written once, every field required; the
 * routes declare its `responseShape` and the SDK and the console take the types derived from it.
 */

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

const topologyLink = {
  type: 'object',
  properties: { id: integer, name: string },
  required: ['id', 'name'],
} as const;

const summaryFields = {
  id: string,
  state: string,
  members: integer,
  lag: integer,
  topologies: {
    type: 'array',
    items: topologyLink,
    description: "Weir's topologies whose stream workers consume as this group",
  },
} as const;
const summaryRequired = ['id', 'state', 'members', 'lag', 'topologies'] as const;

/** One row of `GET /api/consumer-groups`. */
export const consumerGroupSummarySchema = {
  type: 'object',
  properties: summaryFields,
  required: summaryRequired,
} as const;
export type ConsumerGroupSummary = FromSchema<typeof consumerGroupSummarySchema>;

const memberSchema = {
  type: 'object',
  properties: {
    id: string,
    clientId: string,
    host: string,
    assignments: {
      type: 'array',
      items: {
        type: 'object',
        properties: { topic: string, partitions: { type: 'array', items: integer } },
        required: ['topic', 'partitions'],
      },
    },
  },
  required: ['id', 'clientId', 'host', 'assignments'],
} as const;

const groupPartitionSchema = {
  type: 'object',
  properties: {
    topic: string,
    partition: integer,
    committedOffset: { type: ['integer', 'null'] },
    endOffset: integer,
    lag: integer,
    member: { type: ['string', 'null'] },
  },
  required: ['topic', 'partition', 'committedOffset', 'endOffset', 'lag', 'member'],
} as const;

/** `GET /api/consumer-groups/{id}`. */
export const consumerGroupDetailSchema = {
  type: 'object',
  properties: {
    ...summaryFields,
    protocolType: string,
    protocol: string,
    memberDetails: { type: 'array', items: memberSchema },
    partitions: { type: 'array', items: groupPartitionSchema },
  },
  required: [...summaryRequired, 'protocolType', 'protocol', 'memberDetails', 'partitions'],
} as const;
export type ConsumerGroupDetail = FromSchema<typeof consumerGroupDetailSchema>;

const partitionLag = {
  type: 'object',
  properties: { topic: string, partition: integer, lag: integer },
  required: ['topic', 'partition', 'lag'],
} as const;

/** `GET /api/consumer-groups/{id}/lag-history`. */
export const lagHistorySchema = {
  type: 'object',
  properties: {
    id: string,
    sampleSeconds: integer,
    keepMinutes: integer,
    samples: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          time: string, // ISO 8601
          lag: integer,
          partitions: { type: 'array', items: partitionLag },
        },
        required: ['time', 'lag', 'partitions'],
      },
    },
  },
  required: ['id', 'sampleSeconds', 'keepMinutes', 'samples'],
} as const;
export type LagHistory = FromSchema<typeof lagHistorySchema>;

/** The answer of `POST /api/consumer-groups/{id}/reset-offsets`: the offsets committed. */
export const resetOffsetsResultSchema = {
  type: 'object',
  properties: {
    id: string,
    offsets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { topic: string, partition: integer, offset: integer },
        required: ['topic', 'partition', 'offset'],
      },
    },
  },
  required: ['id', 'offsets'],
} as const;
export type ResetOffsetsResult = FromSchema<typeof resetOffsetsResultSchema>;

/** The answers as the routes declare them. */
export const consumerGroupList = listOf(consumerGroupSummarySchema);
export const consumerGroupDetail = responseShape(consumerGroupDetailSchema);
export const lagHistory = responseShape(lagHistorySchema);
export const resetOffsetsResult = responseShape(resetOffsetsResultSchema);

export const consumerGroupParams = { type: 'object', properties: { id: string } } as const;

/** `POST /api/consumer-groups/{id}/reset-offsets`. */
export const resetOffsetsBody = {
  type: 'object',
  required: ['to'],
  properties: {
    to: { type: 'string', enum: ['earliest', 'latest', 'timestamp', 'offset'] },
    timestamp: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'with to=timestamp: milliseconds since the epoch; each partition moves to its first record at or after it',
    },
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'with to=offset' },
    topics: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      description: 'the topics to reset (default: every topic the group has committed offsets for)',
    },
  },
  additionalProperties: false,
} as const;
export type ResetOffsetsRequest = FromSchema<typeof resetOffsetsBody>;
