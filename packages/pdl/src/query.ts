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

/**
 * Queries are pure and never throw, so the operands of AND and OR may run in any order: regular
 * expressions, the costly ones, go last (stable otherwise).
 */
function cheapFirst(operands: readonly Query[]): Predicate[] {
  const costly = (q: Query): boolean => q.kind === 'Comparison' && q.operator === '~=';
  return [...operands.filter((q) => !costly(q)), ...operands.filter(costly)].map(compileQuery);
}

/**
 * `f ?= "a" OR f ?= "b" OR f = "*c" ...`: several string tests of one field (Sigma's value lists,
 * often dozens) read the field once and lower-case it once; a value that is not a string goes
 * through the operands one by one.
 */
function sameFieldStrings(operands: readonly Query[]): Predicate | undefined {
  if (operands.length < 3) return undefined;
  const first = operands[0];
  if (first?.kind !== 'Comparison') return undefined;
  const path = first.field.path;
  const key = path.join('\u0000');
  const tests: { caseless: boolean; test: (text: string) => boolean }[] = [];
  for (const q of operands) {
    if (
      q.kind !== 'Comparison' ||
      (q.operator !== '?=' && q.operator !== '=') ||
      q.value.kind !== 'String' ||
      q.field.path.join('\u0000') !== key
    )
      return undefined;
    const caseless = q.value.caseInsensitive === true;
    const text = caseless ? q.value.value.toLowerCase() : q.value.value;
    tests.push({ caseless, test: compileWildcard(text, q.value.literalStars, q.operator === '?=') });
  }
  const generic = operands.map(compileQuery);
  const anyCaseless = tests.some((t) => t.caseless);
  return (event) => {
    const value = getPath(event, path);
    if (typeof value !== 'string') {
      if (value === undefined) return false;
      for (let i = 0; i < generic.length; i++) if ((generic[i] as Predicate)(event)) return true;
      return false;
    }
    const lower = anyCaseless ? lowerCase(value) : value;
    for (let i = 0; i < tests.length; i++) {
      const t = tests[i] as { caseless: boolean; test: (text: string) => boolean };
      if (t.test(t.caseless ? lower : value)) return true;
    }
    return false;
  };
}

const queryCompilers: QueryCompilers = {
  Or: (node) => {
    const grouped = sameFieldStrings(node.operands);
    if (grouped !== undefined) return grouped;
    const parts = cheapFirst(node.operands);
    switch (parts.length) {
      case 1:
        return parts[0] as Predicate;
      case 2: {
        const [a, b] = parts as [Predicate, Predicate];
        return (event) => a(event) || b(event);
      }
      case 3: {
        const [a, b, c] = parts as [Predicate, Predicate, Predicate];
        return (event) => a(event) || b(event) || c(event);
      }
      default:
        return (event) => {
          for (let i = 0; i < parts.length; i++) if ((parts[i] as Predicate)(event)) return true;
          return false;
        };
    }
  },
  And: (node) => {
    const parts = cheapFirst(node.operands);
    switch (parts.length) {
      case 1:
        return parts[0] as Predicate;
      case 2: {
        const [a, b] = parts as [Predicate, Predicate];
        return (event) => a(event) && b(event);
      }
      case 3: {
        const [a, b, c] = parts as [Predicate, Predicate, Predicate];
        return (event) => a(event) && b(event) && c(event);
      }
      case 4: {
        const [a, b, c, d] = parts as [Predicate, Predicate, Predicate, Predicate];
        return (event) => a(event) && b(event) && c(event) && d(event);
      }
      default:
        return (event) => {
          for (let i = 0; i < parts.length; i++) if (!(parts[i] as Predicate)(event)) return false;
          return true;
        };
    }
  },
  Not: (node) => {
    const inner = compileQuery(node.operand);
    return (event) => !inner(event);
  },
  Comparison: compileComparison,
  In: compileIn,
};

// ---- `=` typing (pdl.md, "Typing") ----------------------------------------------------------

/**
 * The lower-case form of a string, remembered for the last four strings asked: the tests of one
 * event's fields against many case-insensitive literals (an IN list, an OR of Sigma values, the
 * rule index and then the rules) lower each field once.
 */
const lowerIn: string[] = ['', '', '', ''];
const lowerOut: string[] = ['', '', '', ''];
let lowerNext = 0;
export function lowerCase(text: string): string {
  for (let i = 0; i < 4; i++) if (lowerIn[i] === text) return lowerOut[i] as string;
  const lower = text.toLowerCase();
  lowerIn[lowerNext] = text;
  lowerOut[lowerNext] = lower;
  lowerNext = (lowerNext + 1) & 3;
  return lower;
}

const isCaseless = (literal: Literal): boolean => literal.kind === 'String' && literal.caseInsensitive === true;

/** `=` against a case-insensitive literal `i"..."`: strings only, both sides lower-cased. */
function caselessTest(literal: ScalarLiteral & { kind: 'String' }): ValueTest {
  const pattern = literal.value.toLowerCase();
  if (hasWildcard(literal.value, literal.literalStars)) {
    const matches = compileWildcard(pattern, literal.literalStars);
    return (value) => typeof value === 'string' && matches(lowerCase(value));
  }
  return (value) => typeof value === 'string' && lowerCase(value) === pattern;
}

/** `=` against one literal: strings (with wildcards) match strings only; numbers also match canonical numerals. */
export function literalTest(literal: ScalarLiteral): ValueTest {
  switch (literal.kind) {
    case 'String': {
      if (literal.caseInsensitive === true) return caselessTest(literal);
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
    for (let i = 0; i < tests.length; i++)
      if (Array.isArray(values[i]) || !(tests[i] as ValueTest)(values[i])) return false;
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
  const scalar = plainScalar(literal);
  if (scalar !== undefined) {
    // the common case, inlined: a missing field (undefined) equals no plain scalar
    const [a, b] = scalar;
    if (path.length === 1) {
      // Inherited properties (functions, Object.prototype) equal no scalar and are no arrays:
      // ownership is checked only when the value would match.
      const key = path[0] as string;
      return (event) => {
        const value = event[key];
        if (value === a || value === b) return Object.hasOwn(event, key);
        return Array.isArray(value) && anyElement(value, test) && Object.hasOwn(event, key);
      };
    }
    return (event) => {
      const value = getPath(event, path);
      return value === a || value === b || (Array.isArray(value) && anyElement(value, test));
    };
  }
  if (literal.kind === 'String' && path.length === 1 && !isCaseless(literal)) {
    // a wildcard pattern: only strings match (ownership checked on a match, as above)
    const matches = compileWildcard(literal.value, literal.literalStars);
    const key = path[0] as string;
    return (event) => {
      const value = event[key];
      if (typeof value === 'string') return matches(value) && Object.hasOwn(event, key);
      return Array.isArray(value) && anyElement(value, test) && Object.hasOwn(event, key);
    };
  }
  const matchesMissing = literal.kind === 'Null';
  return (event) => {
    const value = getPath(event, path);
    if (value === undefined) return matchesMissing;
    return Array.isArray(value) ? anyElement(value, test) : test(value);
  };
}

/**
 * For a literal without wildcards, the (at most two) values a scalar field may hold to be `=` to
 * it: a string; a boolean; a number and its canonical numeral. Undefined for wildcards and null.
 */
function plainScalar(
  literal: ScalarLiteral,
): readonly [string | number | boolean, string | number | boolean] | undefined {
  switch (literal.kind) {
    case 'String':
      return hasWildcard(literal.value, literal.literalStars) || literal.caseInsensitive === true
        ? undefined
        : [literal.value, literal.value];
    case 'Number': {
      const numeral = String(literal.value);
      return [literal.value, isCanonicalNumeral(numeral) ? numeral : literal.value];
    }
    case 'Boolean':
      return [literal.value, literal.value];
    default:
      return undefined;
  }
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

function compileFieldComparison(
  path: readonly string[],
  operator: ComparisonQuery['operator'],
  other: FieldRef,
): Predicate {
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
  if (literal.kind === 'String' && literal.caseInsensitive === true) {
    const substring = compileWildcard(literal.value.toLowerCase(), literal.literalStars, true);
    return (event) => {
      const value = getPath(event, path);
      if (typeof value === 'string') return substring(lowerCase(value));
      return Array.isArray(value) && anyElement(value, elementTest);
    };
  }
  if (literal.kind === 'String' && !hasWildcard(literal.value, literal.literalStars)) {
    const needle = literal.value;
    if (path.length === 1) {
      const key = path[0] as string; // ownership checked on a match only, as in equalsLiteral
      return (event) => {
        const value = event[key];
        if (typeof value === 'string') return value.includes(needle) && Object.hasOwn(event, key);
        return Array.isArray(value) && anyElement(value, elementTest) && Object.hasOwn(event, key);
      };
    }
    return (event) => {
      const value = getPath(event, path);
      if (typeof value === 'string') return value.includes(needle);
      return Array.isArray(value) && anyElement(value, elementTest);
    };
  }
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
  const plain = inTest(node.values.elements);
  if (plain !== undefined && path.length === 1) {
    const key = path[0] as string; // ownership checked on a match only, as in equalsLiteral
    return (event) => {
      const value = event[key];
      if (Array.isArray(value)) return anyElement(value, plain) && Object.hasOwn(event, key);
      return plain(value) && Object.hasOwn(event, key);
    };
  }
  const test =
    plain ??
    ((value: unknown) => {
      for (let i = 0; i < tests.length; i++) if ((tests[i] as ValueTest)(value)) return true;
      return false;
    });
  return (event) => {
    const value = getPath(event, path);
    if (value === undefined) return matchesMissing;
    return Array.isArray(value) ? anyElement(value, test) : test(value);
  };
}

/**
 * IN over literals without wildcards or null: membership among the strings (with the canonical
 * numerals of the numbers) and among the other scalars; `includes` and a Set compare like `===`
 * here (SameValueZero differs only for NaN, which is no literal). Undefined otherwise.
 */
function inTest(elements: readonly ScalarLiteral[]): ValueTest | undefined {
  const strings: string[] = [];
  const others: (number | boolean)[] = [];
  for (const element of elements) {
    const scalar = plainScalar(element);
    if (scalar === undefined) return undefined;
    for (const v of scalar) {
      if (typeof v === 'string') strings.push(v);
      else others.push(v);
    }
  }
  if (strings.length + others.length > 16) {
    const stringSet = new Set(strings);
    const otherSet = new Set(others);
    return (value) => (typeof value === 'string' ? stringSet.has(value) : otherSet.has(value as number));
  }
  return (value) => (typeof value === 'string' ? strings.includes(value) : others.includes(value as number));
}
