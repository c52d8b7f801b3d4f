import type { Rule } from '@weir/contract';
import { techniqueId, techniques, tactics, type Tactic, type Technique } from '../lib/attack.ts';

/** One technique of a tactic's column, with the enabled rules that cover it or its sub-techniques. */
export interface CoverageCell {
  readonly technique: Technique;
  /** Enabled rules annotated with the technique itself. */
  readonly direct: readonly Rule[];
  /** Covered sub-techniques and their enabled rules. */
  readonly subs: readonly { technique: Technique; rules: readonly Rule[] }[];
  /** Distinct enabled rules covering the technique or any of its sub-techniques. */
  readonly ruleCount: number;
}

export interface Coverage {
  readonly columns: readonly { tactic: Tactic; cells: readonly CoverageCell[]; covered: number }[];
  /** Techniques (not sub-techniques) covered, of all techniques in the matrix. */
  readonly covered: number;
  readonly total: number;
  readonly enabledRules: number;
  /** Annotations that look like technique ids but are not in the shipped table, with their rules. */
  readonly unknown: ReadonlyMap<string, readonly string[]>;
  /** Techniques annotated only on disabled rules (not counted as covered). */
  readonly disabledOnly: readonly string[];
}

/** Whether a rule's annotation names `id` or one of its sub-techniques (`T1110` → also `T1110.001`). */
export function annotatesTechnique(rule: Rule, id: string): boolean {
  return (rule.annotations ?? []).some((a) => {
    const t = techniqueId(a);
    return t !== undefined && (t === id || t.startsWith(`${id}.`));
  });
}

/** The ATT&CK coverage of the rules: only enabled rules count (a disabled rule detects nothing). */
export function coverage(rules: readonly Rule[]): Coverage {
  const byTechnique = new Map<string, Rule[]>();
  const unknown = new Map<string, string[]>();
  const disabled = new Set<string>();
  let enabledRules = 0;
  for (const r of rules) {
    if (r.enabled) enabledRules++;
    for (const a of new Set((r.annotations ?? []).map(techniqueId))) {
      if (a === undefined) continue;
      if (!techniques.has(a)) {
        if (!unknown.has(a)) unknown.set(a, []);
        unknown.get(a)!.push(r.id);
        continue;
      }
      if (!r.enabled) {
        disabled.add(a);
        continue;
      }
      if (!byTechnique.has(a)) byTechnique.set(a, []);
      byTechnique.get(a)!.push(r);
    }
  }
  const subsOf = new Map<string, Technique[]>();
  for (const t of techniques.values()) {
    if (t.parent) {
      if (!subsOf.has(t.parent)) subsOf.set(t.parent, []);
      subsOf.get(t.parent)!.push(t);
    }
  }
  const cellOf = (t: Technique): CoverageCell => {
    const direct = byTechnique.get(t.id) ?? [];
    const subs = (subsOf.get(t.id) ?? [])
      .filter((s) => byTechnique.has(s.id))
      .map((s) => ({ technique: s, rules: byTechnique.get(s.id)! }));
    const ids = new Set([...direct, ...subs.flatMap((s) => s.rules)].map((r) => r.id));
    return { technique: t, direct, subs, ruleCount: ids.size };
  };
  const parents = [...techniques.values()].filter((t) => !t.parent);
  const cells = new Map(parents.map((t) => [t.id, cellOf(t)]));
  const columns = tactics.map((tactic) => {
    const list = parents
      .filter((t) => t.tactics.includes(tactic.shortName))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => cells.get(t.id)!);
    return { tactic, cells: list, covered: list.filter((c) => c.ruleCount > 0).length };
  });
  const coveredIds = [...cells.values()].filter((c) => c.ruleCount > 0).map((c) => c.technique.id);
  const covered = new Set(byTechnique.keys());
  return {
    columns,
    covered: coveredIds.length,
    total: parents.length,
    enabledRules,
    unknown,
    disabledOnly: [...disabled].filter((d) => !covered.has(d)).sort(),
  };
}
