import type { Rule } from '@weir/contract';

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
