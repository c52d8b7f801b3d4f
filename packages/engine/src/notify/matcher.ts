import { alertMetadataKey, isSeverity, severityRank, type NotifierMatcher, type Severity } from '@weir/contract';

/** What the notifications read of an alerts-topic record (docs/alerts.md: `_alert`, `_rule`). */
export interface NotifiedAlert {
  readonly id: string;
  readonly severity: Severity;
  readonly techniques: readonly string[];
  /** `_rule.id`; undefined when the record names no rule. */
  readonly rule: string | undefined;
  /** The whole record, as sent to the receivers. */
  readonly record: Record<string, unknown>;
}

/**
 * The alert of an alerts-topic record, or the reason it is none (a record without `_alert`, e.g. one
 * written with `weir.output.names=original`, or a value that is not a JSON object).
 */
export function notifiedAlert(value: unknown): NotifiedAlert | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the record is not a JSON object';
  const record = value as Record<string, unknown>;
  const meta = record[alertMetadataKey] as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null) return `the record has no ${alertMetadataKey}`;
  if (typeof meta.id !== 'string' || meta.id === '') return `${alertMetadataKey}.id is missing`;
  const rule = record._rule as Record<string, unknown> | undefined;
  return {
    id: meta.id,
    severity: isSeverity(meta.severity) ? meta.severity : 'medium',
    techniques: Array.isArray(meta.techniques) ? meta.techniques.filter((t) => typeof t === 'string') : [],
    rule: typeof rule?.id === 'string' ? rule.id : undefined,
    record,
  };
}

/**
 * Whether a notifier's matcher holds for an alert: every condition given holds (none given: every
 * alert). `minSeverity`: at least that severity; `rules`: the alert's rule is one of them;
 * `techniques`: one of the alert's techniques is one of them or a sub-technique of one (`T1059`
 * holds for `T1059.001`), in any case.
 */
export function matcherHolds(matcher: NotifierMatcher, alert: NotifiedAlert): boolean {
  if (matcher.minSeverity !== undefined && severityRank(alert.severity) < severityRank(matcher.minSeverity))
    return false;
  if (matcher.rules !== undefined && (alert.rule === undefined || !matcher.rules.includes(alert.rule))) return false;
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
