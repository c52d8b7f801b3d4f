import type { ArrayLiteral, ComparisonQuery, FieldRef, InQuery, Literal, Query, ScalarLiteral } from './ast.ts';
import { compileUserRegex } from './regex.ts';
import type { JsonObject } from './values.ts';
import { asNumber, getPath, isCanonicalNumeral } from './values.ts';
import { compileWildcard, hasWildcard } from './wildcard.ts';

/** A compiled query: true keeps the event. Never throws; wrong types make it false (pdl.md, "Errors"). */
export type Predicate = (event: JsonObject) => boolean;

/** Tests one present, non-array value against a literal with `=` semantics. */
type ValueTest = (value: unknown) => boolean;

export function compileQuery(query: Query): Predicate {
  return (queryCompilers[query.kind] as (q: Query) => Predicate)(query);
}

type QueryCompilers = { readonly [K in Query['kind']]: (node: Extract<Query, { kind: K }>) => Predicate };

const queryCompilers: QueryCompilers = {
  Or: (node) => {
    const parts = node.operands.map(compileQuery);
    if (parts.length === 2) {
      const [a, b] = parts as [Predicate, Predicate];
      return (event) => a(event) || b(event);
    }
    return (event) => {
      for (let i = 0; i < parts.length; i++) if ((parts[i] as Predicate)(event)) return true;
      return false;
    };
  },
  And: (node) => {
    const parts = node.operands.map(compileQuery);
    if (parts.length === 2) {
      const [a, b] = parts as [Predicate, Predicate];
      return (event) => a(event) && b(event);
    }
    return (event) => {
      for (let i = 0; i < parts.length; i++) if (!(parts[i] as Predicate)(event)) return false;
      return true;
    };
  },
  Not: (node) => {
    const inner = compileQuery(node.operand);
    return (event) => !inner(event);
  },
  Comparison: compileComparison,
  In: compileIn,
};

// ---- `=` typing (pdl.md, "Typing") ----------------------------------------------------------

/** `=` against one literal: strings (with wildcards) match strings only; numbers also match canonical numerals. */
export function literalTest(literal: ScalarLiteral): ValueTest {
  switch (literal.kind) {
    case 'String': {
      if (hasWildcard(literal.value, literal.literalStars)) {
        const matches = compileWildcard(literal.value, literal.literalStars);
        return (value) => typeof value === 'string' && matches(value);
      }
      const text = literal.value;
      return (value) => value === text;
    }
    case 'Number': {
      const n = literal.value;
      // A canonical numeral equal to n is exactly String(n) (values.ts, isCanonicalNumeral).
      const numeral = String(n);
      if (!isCanonicalNumeral(numeral)) return (value) => value === n;
      return (value) => value === n || value === numeral;
    }
    case 'Boolean': {
      const b = literal.value;
      return (value) => value === b;
    }
    case 'Null':
      return (value) => value === null;
  }
}

function anyElement(values: readonly unknown[], test: ValueTest): boolean {
  for (let i = 0; i < values.length; i++) if (test(values[i])) return true;
  return false;
}

function arrayTest(literal: ArrayLiteral): (value: readonly unknown[]) => boolean {
  const tests = literal.elements.map(literalTest);
  return (values) => {
    if (values.length !== tests.length) return false;
    for (let i = 0; i < tests.length; i++) if (Array.isArray(values[i]) || !(tests[i] as ValueTest)(values[i])) return false;
    return true;
  };
}

/** `field = literal`: a scalar literal holds for any element of an array field; null also matches a missing field. */
function equalsLiteral(path: readonly string[], literal: Literal): Predicate {
  if (literal.kind === 'Array') {
    const test = arrayTest(literal);
    return (event) => {
      const value = getPath(event, path);
      return Array.isArray(value) && test(value);
    };
  }
  const test = literalTest(literal);
  const matchesMissing = literal.kind === 'Null';
  return (event) => {
    const value = getPath(event, path);
    if (value === undefined) return matchesMissing;
    return Array.isArray(value) ? anyElement(value, test) : test(value);
  };
}

// ---- field against field ----------------------------------------------------------------------

function scalarEquals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'object' || a === null;
  if (typeof a === 'number' && typeof b === 'string') return isCanonicalNumeral(b) && Number(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return isCanonicalNumeral(a) && Number(a) === b;
  return false;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return false;
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!scalarEquals(a[i], b[i])) return false;
      return true;
    }
    for (let i = 0; i < a.length; i++) if (scalarEquals(a[i], b)) return true;
    return false;
  }
  if (Array.isArray(b)) {
    for (let i = 0; i < b.length; i++) if (scalarEquals(a, b[i])) return true;
    return false;
  }
  return scalarEquals(a, b);
}

type Order = (a: number | string, b: number | string) => boolean;

const ORDERS: Readonly<Record<'<' | '>' | '<=' | '>=', Order>> = {
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
};

function orderValues(a: unknown, b: unknown, order: Order): boolean {
  if (typeof a === 'string' && typeof b === 'string') return order(a, b);
  const x = asNumber(a);
  const y = asNumber(b);
  return x !== undefined && y !== undefined && order(x, y);
}

function compileFieldComparison(path: readonly string[], operator: ComparisonQuery['operator'], other: FieldRef): Predicate {
  const otherPath = other.path;
  switch (operator) {
    case '=':
      return (event) => valuesEqual(getPath(event, path), getPath(event, otherPath));
    case '!=':
      return (event) => !valuesEqual(getPath(event, path), getPath(event, otherPath));
    case '?=':
      return (event) => {
        const a = getPath(event, path);
        const b = getPath(event, otherPath);
        if (typeof a === 'string') return typeof b === 'string' && a.includes(b);
        if (!Array.isArray(a) || b === undefined || Array.isArray(b)) return false;
        for (let i = 0; i < a.length; i++) if (scalarEquals(a[i], b)) return true;
        return false;
      };
    case '~=':
      // The parser only accepts a string literal after ~=; a hand-built AST with a field never matches.
      return () => false;
    default: {
      const order = ORDERS[operator];
      return (event) => orderValues(getPath(event, path), getPath(event, otherPath), order);
    }
  }
}

// ---- comparison ---------------------------------------------------------------------------

function compileComparison(node: ComparisonQuery): Predicate {
  const path = node.field.path;
  const value = node.value;
  if (value.kind === 'Field') return compileFieldComparison(path, node.operator, value);
  switch (node.operator) {
    case '=':
      return equalsLiteral(path, value);
    case '!=': {
      const equals = equalsLiteral(path, value);
      return (event) => !equals(event);
    }
    case '?=':
      return containsLiteral(path, value);
    case '~=': {
      if (value.kind !== 'String') return () => false;
      const regex = compileUserRegex(value.value);
      return (event) => {
        const v = getPath(event, path);
        if (typeof v === 'string') return regex.test(v);
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) {
          const element = v[i];
          if (typeof element === 'string' && regex.test(element)) return true;
        }
        return false;
      };
    }
    default: {
      const order = ORDERS[node.operator];
      if (value.kind === 'Number') {
        const n = value.value;
        return (event) => {
          const x = asNumber(getPath(event, path));
          return x !== undefined && order(x, n);
        };
      }
      if (value.kind === 'String') {
        const s = value.value;
        return (event) => {
          const v = getPath(event, path);
          return typeof v === 'string' && order(v, s);
        };
      }
      return () => false;
    }
  }
}

/** `?=`: substring (wildcards allowed) on strings; element equality on arrays; false otherwise. */
function containsLiteral(path: readonly string[], literal: Literal): Predicate {
  if (literal.kind === 'Array' || literal.kind === 'Null') return () => false;
  const elementTest = literalTest(literal);
  const substring = literal.kind === 'String' ? compileWildcard(literal.value, literal.literalStars, true) : null;
  return (event) => {
    const value = getPath(event, path);
    if (typeof value === 'string') return substring !== null && substring(value);
    return Array.isArray(value) && anyElement(value, elementTest);
  };
}

/** `field IN [..]`: `=` against any element; a null element also matches a missing field. */
function compileIn(node: InQuery): Predicate {
  const path = node.field.path;
  const tests = node.values.elements.map(literalTest);
  const matchesMissing = node.values.elements.some((e) => e.kind === 'Null');
  const test: ValueTest = (value) => {
    for (let i = 0; i < tests.length; i++) if ((tests[i] as ValueTest)(value)) return true;
    return false;
  };
  return (event) => {
    const value = getPath(event, path);
    if (value === undefined) return matchesMissing;
    return Array.isArray(value) ? anyElement(value, test) : test(value);
  };
}
