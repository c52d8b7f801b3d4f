import type { FieldRef, Query } from './ast.ts';
import { printQuery } from './printer.ts';
import type { Predicate } from './query.ts';
import { compileQuery } from './query.ts';
import type { JsonObject } from './values.ts';
import { getPath } from './values.ts';

/** A field a condition read, and what the event held there. */
export interface FieldSeen {
  /** The field's path joined with dots (`winlog.event_data.Image`). */
  readonly field: string;
  /** Whether the event has the field; `value` is absent when it does not. */
  readonly present: boolean;
  readonly value?: unknown;
}

/** One node of a query with its truth value on one event. */
export interface ConditionExplanation {
  readonly kind: Query['kind'];
  /** The node printed back as PDL. */
  readonly pdl: string;
  readonly result: boolean;
  /** Where the node starts in the rule text (absent for a tree built without source). */
  readonly line?: number;
  readonly column?: number;
  /** And, Or: every operand; Not: its one operand (all evaluated: a query has no side effects). */
  readonly operands?: readonly ConditionExplanation[];
  /** Comparison, In: the fields read (two for a field-against-field comparison). */
  readonly fields?: readonly FieldSeen[];
}

/**
 * Each leaf (comparison, IN) is compiled alone by the compiler's own `compileQuery`, so a leaf's
 * value is the compiled rule's by construction; AND, OR and NOT combine them as the compiled
 * query does (its rewrites, e.g. one read of a field tested against many strings, keep the value).
 */
const leaves = new WeakMap<Query, Predicate>();

function leafPredicate(query: Query): Predicate {
  let predicate = leaves.get(query);
  if (predicate === undefined) {
    predicate = compileQuery(query);
    leaves.set(query, predicate);
  }
  return predicate;
}

function seen(event: JsonObject, field: FieldRef): FieldSeen {
  const value = getPath(event, field.path);
  const name = field.path.join('.');
  return value === undefined ? { field: name, present: false } : { field: name, present: true, value };
}

function position(query: Query): { line?: number; column?: number } {
  const span = (query as { span?: Query['span'] }).span;
  return span === undefined ? {} : { line: span.line, column: span.column };
}

/** The query's tree on `event`: every node with its PDL text and truth value, leaves with the values seen. */
export function explainQuery(query: Query, event: JsonObject): ConditionExplanation {
  const base = { kind: query.kind, pdl: printQuery(query), ...position(query) };
  switch (query.kind) {
    case 'And': {
      const operands = query.operands.map((q) => explainQuery(q, event));
      return { ...base, result: operands.every((o) => o.result), operands };
    }
    case 'Or': {
      const operands = query.operands.map((q) => explainQuery(q, event));
      return { ...base, result: operands.some((o) => o.result), operands };
    }
    case 'Not': {
      const operand = explainQuery(query.operand, event);
      return { ...base, result: !operand.result, operands: [operand] };
    }
    case 'Comparison': {
      const fields = [seen(event, query.field)];
      if (query.value.kind === 'Field') fields.push(seen(event, query.value));
      return { ...base, result: leafPredicate(query)(event), fields };
    }
    case 'In':
      return { ...base, result: leafPredicate(query)(event), fields: [seen(event, query.field)] };
  }
}
