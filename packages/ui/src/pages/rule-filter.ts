import type { Rule } from '@weir/client';

/** The rules table's search: id, name, PDL or an annotation contains the text (any case). */
export function filterRules(rules: readonly Rule[], search: string): Rule[] {
  const q = search.trim().toLowerCase();
  if (!q) return rules as Rule[];
  return rules.filter((r) => r.id.toLowerCase().includes(q) || r.name.toLowerCase().includes(q) || r.pdl.toLowerCase().includes(q)
    || (r.annotations ?? []).some((a) => a.toLowerCase().includes(q)));
}
