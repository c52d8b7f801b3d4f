import { defaultSeverity, severities, type Severity } from '@weir/contract';

/**
 * A Sigma rule's `level` as the Weir rule's severity (docs/sigma.md): Sigma's five levels are
 * Weir's five severities, read in any case. A rule without a level gets no severity (the default,
 * `medium`, applies); a level that is not one of the five is left out with a warning.
 */
export function severityFromLevel(level: string | null, warnings: string[]): { severity?: Severity } {
  if (level === null || level.trim() === '') return {};
  const wanted = level.trim().toLowerCase();
  if ((severities as readonly string[]).includes(wanted)) return { severity: wanted as Severity };
  warnings.push(
    `level '${level}' is not one of Sigma's levels (${severities.join(', ')}): the rule's severity is the default, ${defaultSeverity}`,
  );
  return {};
}
