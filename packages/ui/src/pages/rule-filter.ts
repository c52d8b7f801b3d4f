import { severityOf, severityRank, type Rule, type Severity } from '@weir/contract';
import { tactics, techniques } from '../lib/attack.ts';
import { sigmaMetadata } from '../lib/sigma-metadata.ts';

/**
 * The lower-case search text of every rule (id, name, PDL, annotations), built once per list of
 * rules and kept while that list lives: a keystroke then costs one `includes` per rule and no
 * allocation (10,000 rules filter in a few milliseconds).
 */
const searchText = new WeakMap<readonly Rule[], string[]>();

function textOf(rules: readonly Rule[]): string[] {
  let text = searchText.get(rules);
  if (!text) {
    text = rules.map((r) => `${r.id}\n${r.name}\n${r.pdl}\n${(r.annotations ?? []).join('\n')}`.toLowerCase());
    searchText.set(rules, text);
  }
  return text;
}

/** The rules table's search: id, name, PDL or an annotation contains the text (any case). */
export function filterRules(rules: readonly Rule[], search: string): Rule[] {
  const q = search.trim().toLowerCase();
  if (!q) return rules as Rule[];
  const text = textOf(rules);
  const out: Rule[] = [];
  for (let i = 0; i < rules.length; i++) if (text[i]!.includes(q)) out.push(rules[i]!);
  return out;
}

/** The severities, most severe first (the filter's choices). */
export const severities = ['critical', 'high', 'medium', 'low', 'informational'] as const;

export type SortKey = 'id' | 'name' | 'enabled' | 'severity';
export interface RuleSort {
  readonly key: SortKey;
  readonly direction: 'ascending' | 'descending';
}

/** What the table shows of a rule beside its fields, computed once per rule object. */
interface Facets {
  readonly severity: Severity;
  readonly techniques: readonly string[];
  readonly tactics: readonly string[];
}
const facetsOf = new WeakMap<Rule, Facets>();

/**
 * A rule's severity (its own; else a Sigma import's `sigma.level=` annotation; else medium: severityOf), its ATT&CK
 * technique ids (`T1110`, `attack.t1110.001`: not URLs, tactics or `sigma.*` metadata), and its
 * tactics' short names in the matrix's order: those of its techniques in the shipped table and its
 * own `attack.<tactic>` tags.
 */
export function ruleFacets(rule: Rule): Facets {
  let f = facetsOf.get(rule);
  if (!f) {
    const m = sigmaMetadata(rule);
    const named = new Set([
      ...m.tactics.map((t) => t.shortName),
      ...m.techniques.flatMap((id) => techniques.get(id)?.tactics ?? []),
    ]);
    const ordered = tactics.map((t) => t.shortName).filter((t) => named.has(t));
    const newer = [...named].filter((t) => !ordered.includes(t));
    f = { severity: severityOf(rule), techniques: [...new Set(m.techniques)], tactics: [...ordered, ...newer] };
    facetsOf.set(rule, f);
  }
  return f;
}

/** The rules of `severity` and of `tactic` (a short name); undefined means any. */
export function filterFacets(
  rules: readonly Rule[],
  { severity, tactic }: { severity?: string | undefined; tactic?: string | undefined },
): Rule[] {
  if (severity === undefined && tactic === undefined) return rules as Rule[];
  return rules.filter((r) => {
    const f = ruleFacets(r);
    if (severity !== undefined && f.severity !== severity) return false;
    return tactic === undefined || f.tactics.includes(tactic);
  });
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The rules sorted by `sort` (a new array); ties in ascending id order. Names and ids compare as people read them (`r2` before `r10`). */
export function sortRules(rules: readonly Rule[], sort: RuleSort): Rule[] {
  const compare = (a: Rule, b: Rule): number => {
    switch (sort.key) {
      case 'id':
        return collator.compare(a.id, b.id);
      case 'name':
        return collator.compare(a.name, b.name);
      case 'enabled':
        return Number(a.enabled) - Number(b.enabled);
      case 'severity':
        return severityRank(ruleFacets(a).severity) - severityRank(ruleFacets(b).severity);
    }
  };
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rules].sort((a, b) => sign * compare(a, b) || collator.compare(a.id, b.id));
}
