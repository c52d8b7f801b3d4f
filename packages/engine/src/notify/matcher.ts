import { severityRank, type AlertRead, type NotifierMatcher } from '@weir/contract';

/** What the notifications read of an alerts-topic record (docs/alerts.md: `_alert`, `_rule`): `readAlert`'s. */
export type NotifiedAlert = AlertRead;

/**
 * Whether a notifier's matcher holds for an alert: every condition given holds (none given: every
 * alert). `minSeverity`: at least that severity; `rules`: the alert's rule is one of them;
 * `techniques`: one of the alert's techniques is one of them or a sub-technique of one (`T1059`
 * holds for `T1059.001`), in any case.
 */
export function matcherHolds(matcher: NotifierMatcher, alert: NotifiedAlert): boolean {
  if (matcher.minSeverity !== undefined && severityRank(alert.severity) < severityRank(matcher.minSeverity))
    return false;
  if (matcher.rules !== undefined && (alert.rule.id === null || !matcher.rules.includes(alert.rule.id))) return false;
  if (matcher.techniques !== undefined) {
    const wanted = matcher.techniques.map((t) => t.toUpperCase());
    const has = alert.techniques.some((t) => {
      const id = t.toUpperCase();
      return wanted.some((w) => id === w || id.startsWith(`${w}.`));
    });
    if (!has) return false;
  }
  return true;
}
