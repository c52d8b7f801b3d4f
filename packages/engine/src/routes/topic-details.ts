import {
  addPartitionsBody,
  maxPartitionsAdded,
  purgeBody,
  purgeResult,
  topicParams,
  topicPartitions,
  topicSettings,
  topicSettingsBody,
  type PurgeBody,
} from '@weir/contract';
import { access } from '../auth/roles.ts';
import { apiError } from '../core/errors.ts';
import { brokerErrorId, brokerReason, unavailableOr } from '../kafka/broker-errors.ts';
import { DetailRefusal, type PurgeLimit, type SettingsChange } from '../kafka/topic-details.ts';
import type { RouteModule } from './route-module.ts';
import { auditedChange } from './topics.ts';

type ByName = { Params: { name: string } };

/** Kafka's protocol carries a config name or value as a string of at most 32,767 bytes (int16 length). */
const maxSettingTextBytes = 32_767;

/** The first name or value of a settings change too long for Kafka's protocol, as a violation. */
function settingTextTooLong(change: SettingsChange): string | undefined {
  const texts: [string, string][] = [
    ...Object.entries(change.set).flatMap(([key, value]): [string, string][] => [
      ['body.set (a setting name)', key],
      [`body.set.${key.slice(0, 64)}`, value],
    ]),
    ...change.reset.map((key, i): [string, string] => [`body.reset[${i}]`, key]),
  ];
  for (const [where, text] of texts) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxSettingTextBytes)
      return `${where}: at most ${maxSettingTextBytes} bytes (UTF-8) reach Kafka; found ${bytes}`;
  }
  return undefined;
}

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
    { config: { access: access.member }, schema: { params: topicParams, response: { 200: topicPartitions } } },
    (request) => partitionsOf(request.params.name),
  );

  app.get<ByName>(
    '/api/topics/:name/configs',
    { config: { access: access.member }, schema: { params: topicParams, response: { 200: topicSettings } } },
    (request) => settingsOf(request.params.name),
  );

  app.patch<ByName>(
    '/api/topics/:name/configs',
    {
      config: { access: access.admin },
      schema: { params: topicParams, body: topicSettingsBody, response: { 200: topicSettings } },
    },
    async (request) => {
      const { name } = request.params;
      const body = request.body as Partial<SettingsChange>;
      const change: SettingsChange = { set: body.set ?? {}, reset: body.reset ?? [] };
      if (Object.keys(change.set).length + change.reset.length === 0)
        throw apiError('VALIDATION', 'body: give at least one setting in set or reset');
      const both = change.reset.filter((key) => key in change.set);
      if (both.length > 0) throw apiError('VALIDATION', `body.reset: ${both.join(', ')} also in body.set`);
      const tooLong = settingTextTooLong(change);
      if (tooLong) throw apiError('VALIDATION', tooLong);
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
      schema: { params: topicParams, body: addPartitionsBody, response: { 200: topicPartitions } },
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
      schema: { params: topicParams, body: purgeBody, response: { 200: purgeResult } },
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
