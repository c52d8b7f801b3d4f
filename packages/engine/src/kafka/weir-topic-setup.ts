import { Admin } from '@platformatic/kafka';
import type { Settings } from '../config/settings.ts';
import { isTopicAlreadyExists } from './broker-errors.ts';
import { kafkaConnection } from './client-options.ts';
import {
  alertsTopicName,
  alertTriageTopicName,
  auditTopicName,
  versionsTopicName,
  configTopics,
  weirTopicNames,
  type WeirTopic,
} from './weir-topics.ts';

/** Broker settings of the compacted configuration topics (architecture: Stores). */
export const configTopicSettings = { 'cleanup.policy': 'compact', 'retention.bytes': '-1' } as const;
/**
 * The alerts topic, created by Weir: an alert's record timestamp is its event's time, so a time limit
 * would delete the alerts of a replay of old logs within minutes of raising them. It is bounded by
 * size instead: 1 GiB per partition (set `retention.ms`/`retention.bytes` on the topic to change it).
 */
export const alertsTopicSettings = { 'retention.ms': '-1', 'retention.bytes': String(1024 ** 3) } as const;

/**
 * A lookup is one record, so `<prefix>_lookups` accepts records as large as the lookup limit allows
 * once stored as JSON (rows repeat the field names) and gzip-compressed; the cap stays below the
 * broker's default `socket.request.max.bytes` (100 MiB).
 */
export function lookupTopicMaxMessageBytes(lookupMaxBytes: number): number {
  return Math.min(Math.max(4 * lookupMaxBytes, 8 * 1024 * 1024), 100 * 1024 * 1024 - 64 * 1024);
}

/** Replication factor and `min.insync.replicas` of Weir's internal topics on a cluster of three or more brokers. */
export const internalReplicas = 3;
export const internalMinInsyncReplicas = 2;

/** How to create one of Weir's internal topics on this cluster: `replicas` and extra topic configs. */
export interface InternalReplication {
  readonly replicas: number;
  readonly configs: readonly { name: string; value: string }[];
}

/**
 * Replication of Weir's internal topics (configuration, alerts, and the stream runtime's repartition
 * and changelog topics): on a cluster with at least three live brokers, 3 replicas and
 * `min.insync.replicas=2`, so that one broker can be lost without losing an acknowledged record
 * (every producer of Weir uses `acks=all`) and without stopping writes; on a smaller cluster (the
 * embedded single broker) the broker's defaults (-1).
 */
export async function internalReplication(admin: Admin): Promise<InternalReplication> {
  const metadata = await admin.metadata({ topics: [] });
  if (metadata.brokers.size < internalReplicas) return { replicas: -1, configs: [] };
  return {
    replicas: internalReplicas,
    configs: [{ name: 'min.insync.replicas', value: String(internalMinInsyncReplicas) }],
  };
}

/**
 * Creates the topics Weir needs when they are missing: `<prefix>_alerts` and the compacted
 * `<prefix>_alert_triage` (one partition) always and, with
 * `withConfigTopics`, the eight compacted configuration topics (one partition each, so that a
 * multi-record write is one atomic record batch), replicated as `internalReplication` says.
 * Existing topics are left as they are.
 */
export async function ensureWeirTopics(settings: Settings, clientId: string, withConfigTopics: boolean): Promise<void> {
  const names = {
    ...weirTopicNames(settings.get('weir.topic.prefix')),
    alerts: alertsTopicName(settings.get('weir.topic.prefix'), settings.get('weir.output.names')),
  };
  const admin = new Admin(kafkaConnection(settings, clientId));
  try {
    const existing = new Set(await admin.listTopics());
    const wanted: WeirTopic[] = withConfigTopics ? [...configTopics, 'alerts'] : ['alerts'];
    const replication = wanted.some((topic) => !existing.has(names[topic]))
      ? await internalReplication(admin)
      : undefined;
    for (const topic of wanted) {
      if (existing.has(names[topic])) continue;
      const configs: { name: string; value: string }[] =
        topic === 'alerts'
          ? Object.entries(alertsTopicSettings).map(([name, value]) => ({ name, value }))
          : Object.entries(configTopicSettings).map(([name, value]) => ({ name, value }));
      configs.push(...replication!.configs);
      if (topic === 'lookups') {
        configs.push({
          name: 'max.message.bytes',
          value: String(lookupTopicMaxMessageBytes(settings.get('weir.lookup.max-bytes'))),
        });
      }
      try {
        await admin.createTopics({
          topics: [names[topic]],
          partitions: topic === 'alerts' ? -1 : 1,
          replicas: replication!.replicas,
          configs,
        });
      } catch (err) {
        // Another node may have created it in the meantime.
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
    const triage = alertTriageTopicName(settings.get('weir.topic.prefix'));
    if (!existing.has(triage)) {
      const { replicas, configs } = replication ?? (await internalReplication(admin));
      try {
        await admin.createTopics({
          topics: [triage],
          partitions: 1,
          replicas,
          configs: [...Object.entries(configTopicSettings).map(([name, value]) => ({ name, value })), ...configs],
        });
      } catch (err) {
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
    const versions = versionsTopicName(settings.get('weir.topic.prefix'));
    if (withConfigTopics && !existing.has(versions)) {
      const { replicas, configs } = replication ?? (await internalReplication(admin));
      try {
        await admin.createTopics({
          topics: [versions],
          partitions: 1,
          replicas,
          configs: [...Object.entries(configTopicSettings).map(([name, value]) => ({ name, value })), ...configs],
        });
      } catch (err) {
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
    const audit = auditTopicName(settings.get('weir.topic.prefix'));
    if (withConfigTopics && !existing.has(audit)) {
      const retentionMs = String(settings.get('weir.audit.retention-days') * 24 * 3600 * 1000);
      try {
        await admin.createTopics({
          topics: [audit],
          partitions: 1,
          replicas: -1,
          configs: [
            { name: 'cleanup.policy', value: 'delete' },
            { name: 'retention.ms', value: retentionMs },
          ],
        });
      } catch (err) {
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
  } finally {
    await admin.close();
  }
}

/** The message of an error and of the errors it aggregates (the Kafka client nests them). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const nested = (err as Error & { errors?: unknown[] }).errors ?? [];
  return [err.message, ...nested.map(describeError)].join('; ');
}
