import type { DetectionContext } from './detection.ts';
import type { SigmaMetadata } from './metadata.ts';
import { and, group } from './pdlText.ts';

/**
 * A base rule: a Sigma detection rule of an import as the converter holds it while filters attach
 * to it (convert.ts) and correlations use it (correlation.ts).
 */

/** What a base rule is made of before filters and correlations use it. */
export interface BaseRule {
  readonly index: number;
  readonly doc: Record<string, unknown>;
  readonly meta: SigmaMetadata;
  readonly weirId: string;
  readonly logsource: Record<string, string>;
  readonly logsourceCondition: string | null;
  readonly ctx: DetectionContext;
  readonly detection: string;
  filters: { id: string; query: string }[];
  warnings: string[];
  usedBy: string[];
  generate: boolean;
}

/** The rule's whole query: log source, detection, filters. */
export function baseQuery(rule: BaseRule): string {
  const parts = [rule.logsourceCondition, rule.detection, ...rule.filters.map((f) => f.query)].filter(
    (p): p is string => p !== null,
  );
  return parts.length === 1 ? (parts[0] as string) : and(parts.map(group));
}
