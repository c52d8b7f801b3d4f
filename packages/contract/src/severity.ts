/**
 * A rule's severity (docs/api.md, "Rules"): Sigma's levels, least severe first. A rule without one
 * is `medium`, so that rules written before the field (and the original product's files) stay
 * valid and sort in the middle.
 */
export const severities = ['informational', 'low', 'medium', 'high', 'critical'] as const;

export type Severity = (typeof severities)[number];

export const defaultSeverity: Severity = 'medium';

export const severitySchema = { type: 'string', enum: severities } as const;

/**
 * The severity a rule has: its own; else, for a rule imported from Sigma before the field existed,
 * its `sigma.level=<level>` annotation when that is one of the five; else the default.
 */
export function severityOf(rule: {
  readonly severity?: string | undefined;
  readonly annotations?: readonly string[] | undefined;
}): Severity {
  if (isSeverity(rule.severity)) return rule.severity;
  for (const a of rule.annotations ?? []) {
    if (!a.startsWith('sigma.level=')) continue;
    const level = a.slice('sigma.level='.length).trim().toLowerCase();
    if (isSeverity(level)) return level;
  }
  return defaultSeverity;
}

export function isSeverity(value: unknown): value is Severity {
  return typeof value === 'string' && (severities as readonly string[]).includes(value);
}

/** Severities as numbers for sorting and "at least" matchers: informational 0 … critical 4. */
export function severityRank(severity: string): number {
  return (severities as readonly string[]).indexOf(severity);
}
