import type { Severity } from '@weir/contract';
import type { SigmaMetadata } from './metadata.ts';

/** What convertSigma returns for each YAML document, and the Weir rule it makes of one. */

/** A Weir rule, as POST /api/rules takes it. */
export interface WeirRule {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly pdl: string;
  readonly annotations: string[];
  /** From Sigma's `level` (severity.ts); absent when the document has none or an unknown one. */
  readonly severity?: Severity;
  readonly enabled: boolean;
}

export interface ConvertedDocument {
  readonly status: 'converted';
  readonly kind: 'rule' | 'correlation';
  /** 0-based position of the YAML document in the text. */
  readonly document: number;
  readonly sigma: SigmaMetadata;
  readonly rule: WeirRule;
  /**
   * False for a rule that only a correlation uses (Sigma's `generate: false`, the default): its
   * query is part of the correlation's PDL and it is not stored on its own.
   */
  readonly store: boolean;
  readonly usedBy: string[];
  readonly filters: string[];
  readonly warnings: string[];
}

export interface FilterDocument {
  readonly status: 'filter';
  readonly document: number;
  readonly sigma: SigmaMetadata;
  readonly appliedTo: string[];
  readonly warnings: string[];
}

export interface FailedDocument {
  readonly status: 'error';
  readonly document: number;
  readonly sigma: { readonly id: string | null; readonly title: string | null };
  /** Where in the YAML document (`detection.selection.Image|re`); empty for the whole document. */
  readonly path: string;
  readonly reason: string;
}

export type DocumentResult = ConvertedDocument | FilterDocument | FailedDocument;

/** Weir's id for an imported Sigma rule (docs/sigma.md, "Rule ids"). */
export function weirRuleId(sigmaId: string | null, name: string | null, title: string): string {
  if (sigmaId !== null && sigmaId !== '') return `sigma-${sigmaId}`;
  if (name !== null && name !== '') return `sigma-${name}`;
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `sigma-${slug === '' ? 'untitled' : slug}`;
}
