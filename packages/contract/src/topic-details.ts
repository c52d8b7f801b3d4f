import type { FromSchema } from './from-schema.ts';
import { responseShape } from './response-shape.ts';

/**
 * Topics in depth (docs/api.md → Topics in depth): the answers of GET /api/topics/{name}/partitions
 * and /configs and of a purge, and the bodies of a settings change, of added partitions and of a
 * purge. Each answer is written once, every field required, and the route declares its
 * `responseShape`; the SDK and the console take the types derived from it.
 */

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;
const offset = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const brokers = { type: 'array', items: integer } as const;

const topicPartitionSchema = {
  type: 'object',
  properties: {
    partition: integer,
    leader: integer,
    replicas: brokers,
    inSyncReplicas: brokers,
    lowOffset: integer,
    highOffset: integer,
    messages: integer,
    sizeBytes: integer,
  },
  required: ['partition', 'leader', 'replicas', 'inSyncReplicas', 'lowOffset', 'highOffset', 'messages', 'sizeBytes'],
} as const;

/** `GET /api/topics/{name}/partitions`. */
export const topicPartitionsSchema = {
  type: 'object',
  properties: {
    name: string,
    messages: integer,
    sizeBytes: integer,
    partitions: { type: 'array', items: topicPartitionSchema },
  },
  required: ['name', 'messages', 'sizeBytes', 'partitions'],
} as const;
export type TopicPartitions = FromSchema<typeof topicPartitionsSchema>;

export const topicSettingSchema = {
  type: 'object',
  properties: {
    name: string,
    value: { type: ['string', 'null'] },
    source: string,
    changed: { type: 'boolean' }, // set on the topic itself (changed from the broker's default)
    readOnly: { type: 'boolean' },
    sensitive: { type: 'boolean' },
  },
  required: ['name', 'value', 'source', 'changed', 'readOnly', 'sensitive'],
} as const;
export type TopicSetting = FromSchema<typeof topicSettingSchema>;

/** `GET /api/topics/{name}/configs`. */
export const topicSettingsSchema = {
  type: 'object',
  properties: { name: string, settings: { type: 'array', items: topicSettingSchema } },
  required: ['name', 'settings'],
} as const;
export type TopicSettings = FromSchema<typeof topicSettingsSchema>;

/** The answer of a purge: each partition's new log start. */
export const purgeResultSchema = {
  type: 'object',
  properties: {
    name: string,
    partitions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { partition: integer, lowOffset: integer },
        required: ['partition', 'lowOffset'],
      },
    },
  },
  required: ['name', 'partitions'],
} as const;
export type PurgeResult = FromSchema<typeof purgeResultSchema>;

/** The answers as the routes declare them. */
export const topicPartitions = responseShape(topicPartitionsSchema);
export const topicSettings = responseShape(topicSettingsSchema);
export const purgeResult = responseShape(purgeResultSchema);

/** `PATCH /api/topics/{name}/configs`. */
export const topicSettingsBody = {
  type: 'object',
  properties: {
    set: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'settings to set on the topic, name → value (strings, as Kafka takes them)',
    },
    reset: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: "settings to remove from the topic (back to the broker's default)",
    },
  },
  additionalProperties: false,
} as const;
export type TopicSettingsChange = FromSchema<typeof topicSettingsBody>;

/** The most partitions a topic can reach through POST /api/topics/{name}/partitions. */
export const maxPartitionsByApi = 1000;
/** The most partitions one request adds (the broker takes seconds to open hundreds). */
export const maxPartitionsAdded = 100;

/** `POST /api/topics/{name}/partitions`. */
export const addPartitionsBody = {
  type: 'object',
  required: ['count'],
  properties: {
    // The API adds partitions up to maxPartitionsByApi: tens of thousands in one request held a test
    // broker (and every other request to it) for minutes. Larger topics: Kafka's own tools.
    count: { type: 'integer', minimum: 1, maximum: maxPartitionsByApi, description: 'the new number of partitions' },
  },
  additionalProperties: false,
} as const;

/** `POST /api/topics/{name}/purge`: records before an offset per partition, or older than a time. */
export const purgeBody = {
  type: 'object',
  required: ['confirm'],
  properties: {
    confirm: { type: 'string', description: "the topic's name, typed again" },
    offsets: {
      type: 'object',
      additionalProperties: offset,
      description: 'partition → offset: the records before it are deleted',
    },
    beforeTimestamp: { ...offset, description: 'milliseconds since the epoch: every record older is deleted' },
  },
  additionalProperties: false,
} as const;
export type PurgeBody = FromSchema<typeof purgeBody>;
/** A purge names offsets or a time (the route refuses both or neither). */
export type PurgeRequest =
  Required<Pick<PurgeBody, 'confirm' | 'offsets'>> | Required<Pick<PurgeBody, 'confirm' | 'beforeTimestamp'>>;
