/**
 * The topics Weir owns (architecture: Stores). The product names are exactly `weir_nodes` … `weir_alerts`;
 * the setting `weir.topic.prefix` (default `weir`) only exists so that tests and side-by-side
 * installations on one cluster can keep their data apart.
 */
export const weirTopicSuffixes = {
  nodes: 'nodes',
  rules: 'rules',
  tasks: 'tasks',
  pipelines: 'pipelines',
  topologies: 'topologies',
  lookups: 'lookups',
  users: 'users',
  silences: 'silences',
  notifiers: 'notifiers',
  alerts: 'alerts',
} as const;
export type WeirTopic = keyof typeof weirTopicSuffixes;

export const defaultTopicPrefix = 'weir';

/** Topic names for a prefix: `{ nodes: '<prefix>_nodes', … }`. */
export function weirTopicNames(prefix: string = defaultTopicPrefix): Record<WeirTopic, string> {
  const names = {} as Record<WeirTopic, string>;
  for (const [key, suffix] of Object.entries(weirTopicSuffixes)) names[key as WeirTopic] = `${prefix}_${suffix}`;
  return names;
}

/** The alerts topic: `<prefix>_alerts`, or the original's `padas_alerts` with `weir.output.names=original`. */
export function alertsTopicName(prefix: string, outputNames: 'weir' | 'original'): string {
  return outputNames === 'original' ? 'padas_alerts' : weirTopicNames(prefix).alerts;
}

/** The product's topic names (`weir_nodes` …). */
export const weirTopics = weirTopicNames();

/** The compacted configuration topics, which the kafka config store materialises (notifiers: docs/alerts.md). */
export const configTopics = [
  'nodes',
  'rules',
  'tasks',
  'pipelines',
  'topologies',
  'lookups',
  'users',
  'silences',
  'notifiers',
] as const satisfies readonly WeirTopic[];

/** The topics `GET /api/topics/init` requires (spec: Versioning, earlier forms): the six config topics and alerts. */
export const requiredTopics = [
  'nodes',
  'rules',
  'tasks',
  'pipelines',
  'topologies',
  'lookups',
  'alerts',
] as const satisfies readonly WeirTopic[];

/**
 * The alerts' triage topic (docs/alerts.md, "The alert store and triage"): compacted, one
 * partition, key = alert id, value = the alert's triage; every node applies it to its alert index.
 */
export function alertTriageTopicName(prefix: string = defaultTopicPrefix): string {
  return `${prefix}_alert_triage`;
}

/**
 * The audit trail's topic in kafka store mode: not compacted (`cleanup.policy=delete`), kept for
 * `weir.audit.retention-days` (docs/security.md, "Audit trail").
 */
export function auditTopicName(prefix: string = defaultTopicPrefix): string {
  return `${prefix}_audit`;
}

/**
 * The versions of rules, tasks, pipelines and topologies in kafka store mode (docs/detection-as-code.md,
 * "Versions"): compacted, one partition, a unique key per version (`<collection>/<id>/<uuid>`), so
 * compaction keeps every version; a record's versions are numbered in the topic's order.
 */
export function versionsTopicName(prefix: string = defaultTopicPrefix): string {
  return `${prefix}_versions`;
}

/**
 * The dead letters of the notifications (docs/alerts.md, "Notifications"): one record per delivery
 * given up after its last attempt. Not a configuration topic: created by the delivery when missing.
 */
export function notifyDeadLetterTopicName(prefix: string = defaultTopicPrefix): string {
  return `${prefix}_notify_dlq`;
}
