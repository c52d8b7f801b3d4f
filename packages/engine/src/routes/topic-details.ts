import { listOf, responseShape, topicParams } from '@weir/contract';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { brokerErrorId, brokerReason, unavailableOr } from '../kafka/broker-errors.ts';
import { DetailRefusal, type PurgeLimit, type SettingsChange } from '../kafka/topic-details.ts';
import type { RouteModule } from './route-module.ts';
import { auditedChange } from './topics.ts';

type ByName = { Params: { name: string } };
interface PurgeBody {
  readonly confirm: string;
  readonly offsets?: Readonly<Record<string, number>>;
  readonly beforeTimestamp?: number;
}

const integer = { type: 'integer' } as const;
const offset = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const brokers = { type: 'array', items: integer } as const;

const partitionsAnswer = responseShape({
  type: 'object',
  properties: {
    name: { type: 'string' },
    messages: integer,
    sizeBytes: integer,
    partitions: listOf({
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
    }),
  },
});
const settingsAnswer = responseShape({
  type: 'object',
  properties: {
    name: { type: 'string' },
    settings: listOf({
      type: 'object',
      properties: {
        name: { type: 'string' },
        value: { type: ['string', 'null'] },
        source: { type: 'string' },
        changed: { type: 'boolean' },
        readOnly: { type: 'boolean' },
        sensitive: { type: 'boolean' },
      },
    }),
  },
});
const purgeAnswer = responseShape({
  type: 'object',
  properties: {
    name: { type: 'string' },
    partitions: listOf({ type: 'object', properties: { partition: integer, lowOffset: integer } }),
  },
});

const settingsBody = {
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
/** The most partitions a topic can reach through POST /api/topics/{name}/partitions. */
export const maxPartitionsByApi = 1000;
/** The most partitions one request adds (the broker takes seconds to open hundreds). */
export const maxPartitionsAdded = 100;
const partitionsBody = {
  type: 'object',
  required: ['count'],
  properties: {
    // The API adds partitions up to maxPartitionsByApi: tens of thousands in one request held a test
    // broker (and every other request to it) for minutes. Larger topics: Kafka's own tools.
    count: { type: 'integer', minimum: 1, maximum: maxPartitionsByApi, description: 'the new number of partitions' },
  },
  additionalProperties: false,
} as const;
const purgeBody = {
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

/**
 * Topics in depth (issue 23; docs/api.md → Topics in depth): partitions with offsets and sizes,
 * settings marked changed, and the admin's changes: settings, added partitions, purged records.
 * Reading is open to every user; changes are admin only and audited (kind `topic`).
 */
export const topicDetailRoutes: RouteModule = (app, ctx) => {
  const kafka = ctx.topics;
  const withKafka = async <T>(work: () => Promise<T>, name?: string): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof DetailRefusal) throw apiError('VALIDATION', err.message);
      if (name !== undefined && brokerErrorId(err) !== undefined)
        throw apiError('TOPIC_CHANGE_REFUSED', name, brokerReason(err));
      throw unavailableOr(err, kafka.bootstrap);
    }
  };
  const partitionsOf = async (name: string) => {
    const found = await withKafka(() => kafka.details.partitions(name));
    if (!found) throw apiError('TOPIC_MISSING');
    return found;
  };
  const settingsOf = async (name: string) => {
    const settings = await withKafka(() => kafka.details.settings(name));
    if (!settings) throw apiError('TOPIC_MISSING');
    return { name, settings };
  };

  app.get<ByName>(
    '/api/topics/:name/partitions',
    { config: { access: access.member }, schema: { params: topicParams, response: { 200: partitionsAnswer } } },
    (request) => partitionsOf(request.params.name),
  );

  app.get<ByName>(
    '/api/topics/:name/configs',
    { config: { access: access.member }, schema: { params: topicParams, response: { 200: settingsAnswer } } },
    (request) => settingsOf(request.params.name),
  );

  app.patch<ByName>(
    '/api/topics/:name/configs',
    {
      config: { access: access.admin },
      schema: { params: topicParams, body: settingsBody, response: { 200: settingsAnswer } },
    },
    async (request) => {
      const { name } = request.params;
      const body = request.body as Partial<SettingsChange>;
      const change: SettingsChange = { set: body.set ?? {}, reset: body.reset ?? [] };
      if (Object.keys(change.set).length + change.reset.length === 0)
        throw apiError('VALIDATION', 'body: give at least one setting in set or reset');
      const both = change.reset.filter((key) => key in change.set);
      if (both.length > 0) throw apiError('VALIDATION', `body.reset: ${both.join(', ')} also in body.set`);
      await settingsOf(name);
      await auditedChange(ctx, 'topic', 'configure', name, change, () =>
        withKafka(() => kafka.details.changeSettings(name, change), name),
      );
      return settingsOf(name);
    },
  );

  app.post<ByName>(
    '/api/topics/:name/partitions',
    {
      config: { access: access.admin },
      schema: { params: topicParams, body: partitionsBody, response: { 200: partitionsAnswer } },
    },
    async (request) => {
      const { name } = request.params;
      const { count } = request.body as { count: number };
      const current = (await partitionsOf(name)).partitions.length;
      if (count <= current)
        throw apiError(
          'VALIDATION',
          `body.count: topic ${name} has ${current} partitions; count must be greater (partitions can be added, never removed)`,
        );
      if (count - current > maxPartitionsAdded)
        throw apiError(
          'VALIDATION',
          `body.count: at most ${maxPartitionsAdded} partitions can be added in one request; topic ${name} has ${current}, so count may be up to ${current + maxPartitionsAdded}`,
        );
      await auditedChange(ctx, 'topic', 'add-partitions', name, { count }, () =>
        withKafka(() => kafka.details.addPartitions(name, count), name),
      );
      return partitionsOf(name);
    },
  );

  app.post<ByName>(
    '/api/topics/:name/purge',
    {
      config: { access: access.admin },
      schema: { params: topicParams, body: purgeBody, response: { 200: purgeAnswer } },
    },
    async (request) => {
      const { name } = request.params;
      const body = request.body as PurgeBody;
      if ((body.offsets === undefined) === (body.beforeTimestamp === undefined))
        throw apiError('VALIDATION', 'body: give exactly one of offsets and beforeTimestamp');
      const notPartition = Object.keys(body.offsets ?? {}).find((key) => !/^(0|[1-9]\d{0,5})$/.test(key));
      if (notPartition !== undefined)
        throw apiError('VALIDATION', `body.offsets.${notPartition}: not a partition number (an integer >= 0)`);
      await partitionsOf(name);
      if (body.confirm !== name) throw apiError('PURGE_CONFIRM', name);
      const limit: PurgeLimit =
        body.offsets !== undefined
          ? { kind: 'offsets', offsets: new Map(Object.entries(body.offsets).map(([p, o]) => [Number(p), o])) }
          : { kind: 'before', timestamp: body.beforeTimestamp! };
      const after = body.offsets !== undefined ? { offsets: body.offsets } : { beforeTimestamp: body.beforeTimestamp };
      const lows = await auditedChange(ctx, 'topic', 'purge', name, after, () =>
        withKafka(() => kafka.details.purge(name, limit), name),
      );
      return {
        name,
        partitions: [...lows].sort(([a], [b]) => a - b).map(([partition, lowOffset]) => ({ partition, lowOffset })),
      };
    },
  );
};
