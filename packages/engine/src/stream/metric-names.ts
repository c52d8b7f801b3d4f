import { ruleMetricNames } from '../rules/rule-metrics.ts';

/**
 * Every metric name the engine exports (`GET /metrics`, `GET /api/metrics/summary`), in one place:
 * the workers count under these names, the Prometheus registry declares them, the summary reads them.
 * The rule metrics' names are rules/rule-metrics.ts's, which counts the matches.
 */
export const metricNames = {
  recordsIn: 'weir_records_in_total',
  recordsOut: 'weir_records_out_total',
  deadLettered: 'weir_records_dead_lettered_total',
  ruleMatches: ruleMetricNames.ruleMatches,
  alerts: 'weir_alerts_total',
  skipped: 'weir_records_skipped_total',
  taskErrors: 'weir_task_errors_total',
  rulesSkipped: ruleMetricNames.rulesSkipped,
  ruleSuppressed: ruleMetricNames.ruleSuppressed,
  nearRetention: 'weir_input_records_near_retention_total',
  deletedUnread: 'weir_input_records_deleted_unread_total',
  batchSeconds: 'weir_batch_processing_seconds',
  /** Histograms per step of a batch's way (docs/engine.md, "Metrics"; label `step`). */
  recordAge: 'weir_record_age_seconds',
  batchStep: 'weir_batch_step_seconds',
  offsetCommits: 'weir_offset_commits_total',
  consumerLag: 'weir_consumer_lag',
  workerState: 'weir_worker_state',
  /** Notifications (docs/alerts.md, "Notifications"), per notifier. */
  notificationsSent: 'weir_notifications_sent_total',
  notificationsRetried: 'weir_notifications_retried_total',
  notificationsDeadLettered: 'weir_notifications_dead_lettered_total',
  /** Prefix of Node's process metrics (CPU, memory, event loop, GC). */
  processPrefix: 'weir_process_',
} as const;
