import type { Pipeline, Query, ScalarLiteral } from './ast.ts';
import { parse } from './parser.ts';
import { hasWildcard } from './wildcard.ts';

export interface RequiredEquality {
  /** The dotted field name. */
  readonly field: string;
  readonly path: readonly string[];
  /** The field must `=`-equal one of these (index events with `valueKey`). */
  readonly values: readonly (string | number | boolean)[];
}

/**
 * The equality and IN conditions that must hold for a pipeline to yield anything: only from the
 * top-level AND-ed conditions of a first query stage, without wildcards or null. The engine
 * indexes rules by them: a rule is a candidate for an event only if, for each entry, the event's
 * field (or an element of it, for arrays) has the `valueKey` of one of the values.
 */
export function requiredEqualities(source: Pipeline | string): RequiredEquality[] {
  const pipeline = typeof source === 'string' ? parse(source) : source;
  const first = pipeline.stages[0];
  if (first?.kind !== 'QueryStage') return [];
  const out: RequiredEquality[] = [];
  collect(first.query, out);
  return out;
}

type Value = string | number | boolean;

function literalValue(node: ScalarLiteral): Value | undefined {
  switch (node.kind) {
    case 'String':
      return hasWildcard(node.value, node.literalStars) || node.caseInsensitive === true ? undefined : node.value;
    case 'Number':
    case 'Boolean':
      return node.value;
    default:
      return undefined;
  }
}

function collect(query: Query, out: RequiredEquality[]): void {
  if (query.kind === 'And') {
    for (const operand of query.operands) collect(operand, out);
    return;
  }
  if (query.kind === 'Comparison' && query.operator === '=' && query.value.kind !== 'Field' && query.value.kind !== 'Array') {
    const value = literalValue(query.value);
    if (value !== undefined) out.push({ field: query.field.path.join('.'), path: query.field.path, values: [value] });
    return;
  }
  if (query.kind === 'In') {
    const values: Value[] = [];
    for (const element of query.values.elements) {
      const value = literalValue(element);
      if (value === undefined) return;
      values.push(value);
    }
    if (values.length > 0) out.push({ field: query.field.path.join('.'), path: query.field.path, values });
  }
}
