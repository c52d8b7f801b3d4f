import type { AndQuery, ComparisonQuery, OrQuery, Query } from './ast.ts';
import { print } from './printer.ts';

/** A condition that holds for no event, or for every event, and why. */
export interface ConstantCondition {
  readonly node: AndQuery | OrQuery;
  readonly value: boolean;
  /** Why, naming the operands. */
  readonly reason: string;
  /** True when the reason holds for every event (else: unless the field holds an array). */
  readonly certain: boolean;
}

/** The text of a query without its positions, with `a != v` written as `NOT a = v` (pdl.md: `!=` is the negation of `=`). */
function polarity(query: Query): { readonly negated: boolean; readonly text: string } {
  if (query.kind === 'Not') {
    const inner = polarity(query.operand);
    return { negated: !inner.negated, text: inner.text };
  }
  if (query.kind === 'Comparison' && query.operator === '!=')
    return { negated: true, text: print({ ...query, operator: '=' }) };
  return { negated: false, text: print(query) };
}

/** An operand and its negation in the same AND (never true) or OR (always true): holds for arrays too. */
function complementary(node: AndQuery | OrQuery): ConstantCondition | undefined {
  const seen = new Map<string, { negated: boolean; query: Query }>();
  for (const operand of node.operands) {
    const p = polarity(operand);
    const other = seen.get(p.text);
    if (other !== undefined && other.negated !== p.negated) {
      const value = node.kind === 'Or';
      return {
        node,
        value,
        certain: true,
        reason: `\`${print(other.query)}\` ${value ? 'OR' : 'AND'} \`${print(operand)}\` ${value ? 'holds for every event' : 'holds for no event'}: one is the negation of the other`,
      };
    }
    if (other === undefined) seen.set(p.text, { negated: p.negated, query: operand });
  }
  return undefined;
}

interface Bound {
  readonly value: number;
  readonly inclusive: boolean;
  readonly query: ComparisonQuery;
}

/**
 * Comparisons of one field in an AND that no single value satisfies: two different exact values
 * (`x = 1 AND x = 2`, `x = "a" AND x = "b"`), or numeric bounds that leave nothing (`x > 5 AND x < 3`).
 * A field holding an array can still match (pdl.md: a scalar compared with an array holds when any
 * element does), so this is reported as not certain.
 */
function contradictoryValues(node: AndQuery): ConstantCondition | undefined {
  const byField = new Map<string, ComparisonQuery[]>();
  for (const operand of node.operands) {
    if (operand.kind !== 'Comparison' || operand.value.kind === 'Field' || operand.value.kind === 'Array') continue;
    const key = operand.field.path.join('\u0000');
    byField.set(key, [...(byField.get(key) ?? []), operand]);
  }
  const never = (a: ComparisonQuery, b: ComparisonQuery): ConstantCondition => ({
    node,
    value: false,
    certain: false,
    reason: `\`${print(a)}\` AND \`${print(b)}\` hold together for no single value (only a field holding an array of several values could match)`,
  });
  for (const comparisons of byField.values()) {
    let exact: { key: string; query: ComparisonQuery } | undefined;
    let lower: Bound | undefined;
    let upper: Bound | undefined;
    for (const c of comparisons) {
      const v = c.value;
      if (c.operator === '=') {
        const key =
          v.kind === 'String' &&
          !v.caseInsensitive &&
          !(v.value.includes('*') && v.literalStars.length < countStars(v.value))
            ? `s${v.value}`
            : v.kind === 'Number'
              ? `n${v.value}`
              : v.kind === 'Boolean'
                ? `b${v.value}`
                : undefined;
        if (key === undefined) continue;
        if (exact !== undefined && exact.key[0] === key[0] && exact.key !== key) return never(exact.query, c);
        exact ??= { key, query: c };
      }
      if (v.kind !== 'Number') continue;
      const bound = { value: v.value, query: c };
      if (c.operator === '>' || c.operator === '>=' || c.operator === '=') {
        const b = { ...bound, inclusive: c.operator !== '>' };
        if (lower === undefined || b.value > lower.value || (b.value === lower.value && !b.inclusive)) lower = b;
      }
      if (c.operator === '<' || c.operator === '<=' || c.operator === '=') {
        const b = { ...bound, inclusive: c.operator !== '<' };
        if (upper === undefined || b.value < upper.value || (b.value === upper.value && !b.inclusive)) upper = b;
      }
      if (
        lower !== undefined &&
        upper !== undefined &&
        (lower.value > upper.value || (lower.value === upper.value && !(lower.inclusive && upper.inclusive)))
      )
        return never(lower.query, upper.query);
    }
  }
  return undefined;
}

function countStars(text: string): number {
  let n = 0;
  for (const ch of text) if (ch === '*') n++;
  return n;
}

/** Every AND and OR of a query (the query itself included) that is always or never true. */
export function constantConditions(query: Query): ConstantCondition[] {
  const out: ConstantCondition[] = [];
  const visit = (q: Query): void => {
    if (q.kind === 'Not') return visit(q.operand);
    if (q.kind !== 'And' && q.kind !== 'Or') return;
    q.operands.forEach(visit);
    const found = complementary(q) ?? (q.kind === 'And' ? contradictoryValues(q) : undefined);
    if (found !== undefined) out.push(found);
  };
  visit(query);
  return out;
}
