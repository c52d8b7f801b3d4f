import { severities, type AlertGroup, type Severity } from '@weir/contract';

/** How long the Overview counts alerts back (its "last 24 hours"). */
export const severityWindowMs = 86_400_000;

/**
 * The Overview's alerts by severity: `GET /api/alerts/groups?by=field:_alert.severity&from=…` (one
 * query for the five counts) as a count per severity, most severe first, 0 for one without alerts.
 */
export function severityCounts(groups: readonly AlertGroup[]): { severity: Severity; count: number }[] {
  const byKey = new Map(groups.map((g) => [g.key, g.count]));
  return [...severities].reverse().map((severity) => ({ severity, count: byKey.get(severity) ?? 0 }));
}
