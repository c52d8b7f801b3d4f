import type { Pipeline, Query, ScalarLiteral } from './ast.ts';
import { requiredLiteral } from './regex.ts';
import { hasWildcard, wildcardParts } from './wildcard.ts';

/**
 * The conditions a rule needs to hold for it to match, as far as RuleIndex can tell (from its
 * first query stage), and the cheapest choice among them: the keys a rule can be indexed by.
 */

/**
 * A condition on one field that a rule may need to hold for it to match:
 * - `equals`: the field (or an element of it) `=`-equals the value;
 * - `prefix` / `suffix` / `contains`: the field (or an element of it) is a string that starts
 *   with / ends with / contains the text (never empty).
 */
export interface Key {
  readonly kind: 'equals' | 'prefix' | 'suffix' | 'contains';
  readonly path: readonly string[];
  readonly value: string | number | boolean;
  /** A key of a case-insensitive literal (`i"..."`): `value` is lower case, met by the lower-cased string. */
  readonly caseless: boolean;
  /** Identifies the key (kind, path, value and its type). */
  readonly id: string;
}

/**
 * What a query needs of an event for it to hold, as far as the index can tell: a key; `all` of
 * its parts (an AND: any one part's keys will do for the index); `any` of its parts (an OR, an
 * IN list: the index needs keys for every part). Undefined: nothing the index can use.
 */
export type Need =
  { readonly kind: 'key'; readonly key: Key } | { readonly kind: 'all' | 'any'; readonly parts: readonly Need[] };

const fieldIds = new WeakMap<readonly string[], string>();

/** A field path as one string (a map key); worked out once per path array (a rule's keys on one field share it). */
export const fieldId = (path: readonly string[]): string => {
  let id = fieldIds.get(path);
  if (id === undefined) fieldIds.set(path, (id = path.join('\u0000')));
  return id;
};

/**
 * The field a key is looked up under: its path, kept apart for caseless keys (their field holds
 * lower-cased strings, met by the lower-cased event string).
 */
export const indexedFieldId = (key: Key): string => (key.caseless ? 'i\u0000' : '') + fieldId(key.path);

/** A key as text (`suffix Image i"\\cmd.exe"`), for RuleIndex.keysOf. */
export const describeKey = (key: Key): string =>
  `${key.kind} ${key.path.join('.')} ${key.caseless ? 'i' : ''}${JSON.stringify(key.value)}`;

function makeKey(kind: Key['kind'], path: readonly string[], value: string | number | boolean, caseless = false): Need {
  const type = caseless ? 'i' : typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b';
  return {
    kind: 'key',
    key: { kind, path, value, caseless, id: `${kind}\u0000${type}:${String(value)}\u0000${fieldId(path)}` },
  };
}

const all = (parts: Need[]): Need | undefined =>
  parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { kind: 'all', parts };

const needs = new WeakMap<Pipeline, Need | null>();

/**
 * The need of a pipeline: that of its first stage when it is a query (later stages only drop or
 * change events). Worked out once per pipeline (ASTs are not changed once parsed): a RuleIndex
 * built again over mostly the same compiled rules (one rule changed) reuses the others' needs.
 */
export function pipelineNeed(pipeline: Pipeline): Need | undefined {
  let need = needs.get(pipeline);
  if (need === undefined) {
    const first = pipeline.stages[0];
    need = (first?.kind === 'QueryStage' ? queryNeed(first.query) : undefined) ?? null;
    needs.set(pipeline, need);
  }
  return need ?? undefined;
}

function queryNeed(query: Query): Need | undefined {
  switch (query.kind) {
    case 'And':
      return all(query.operands.map(queryNeed).filter((n) => n !== undefined));
    case 'Or': {
      const parts: Need[] = [];
      for (const operand of query.operands) {
        const need = queryNeed(operand);
        if (need === undefined) return undefined;
        parts.push(need);
      }
      return { kind: 'any', parts };
    }
    case 'In': {
      // `=` against any element (a null element also matches a missing field: no need)
      const parts: Need[] = [];
      for (const element of query.values.elements) {
        const need = equalsNeed(query.field.path, element);
        if (need === undefined) return undefined;
        parts.push(need);
      }
      return parts.length === 0 ? undefined : { kind: 'any', parts };
    }
    case 'Comparison': {
      const value = query.value;
      if (value.kind === 'Field' || value.kind === 'Array') return undefined;
      if (query.operator === '=') return equalsNeed(query.field.path, value);
      if (query.operator === '~=' && value.kind === 'String') return regexNeed(query.field.path, value.value);
      if (query.operator === '?=' && value.kind === 'String') {
        // a string holds the pattern's text as a substring; an array element equals the pattern
        // (`=`, which holds its text too): each non-empty piece between wildcards is a substring
        const caseless = value.caseInsensitive === true;
        const pieces = wildcardParts(caseless ? value.value.toLowerCase() : value.value, value.literalStars).filter(
          (p) => p !== '',
        );
        return all(pieces.map((p) => makeKey('contains', query.field.path, p, caseless)));
      }
      return undefined;
    }
    default:
      return undefined; // NOT, and anything else: nothing required
  }
}

/**
 * `field ~= "pattern"` holds only for a string (or an array's string element) that contains the
 * literal text every match of the pattern contains (regex.ts, `requiredLiteral`): a substring key.
 * For `(?i)` the key is caseless and taken from the literal's longest piece without an `s`: RE2
 * folds `ſ` (U+017F) to `s`, which `toLowerCase` does not; every other ASCII letter's fold (`K`,
 * U+212A, for `k` included) lower-cases to the letter, so the lower-cased string holds the piece.
 */
function regexNeed(path: readonly string[], pattern: string): Need | undefined {
  let required: ReturnType<typeof requiredLiteral>;
  try {
    required = requiredLiteral(pattern);
  } catch {
    return undefined;
  }
  if (required === null) return undefined;
  if (!required.ignoreCase) return makeKey('contains', path, required.text);
  const piece = required.text
    .toLowerCase()
    .split('s')
    .reduce((a, b) => (b.length > a.length ? b : a), '');
  return piece === '' ? undefined : makeKey('contains', path, piece, true);
}

/** `field = literal` (on the field or an element): the exact value, or a wildcard pattern's literal pieces. */
function equalsNeed(path: readonly string[], literal: ScalarLiteral): Need | undefined {
  switch (literal.kind) {
    case 'String': {
      const caseless = literal.caseInsensitive === true;
      const text = caseless ? literal.value.toLowerCase() : literal.value;
      if (!hasWildcard(literal.value, literal.literalStars)) return makeKey('equals', path, text, caseless);
      // only strings match a pattern: its first piece is a prefix, its last a suffix, the others substrings
      const pieces = wildcardParts(text, literal.literalStars);
      const parts: Need[] = [];
      pieces.forEach((piece, i) => {
        if (piece === '') return;
        parts.push(
          makeKey(i === 0 ? 'prefix' : i === pieces.length - 1 ? 'suffix' : 'contains', path, piece, caseless),
        );
      });
      return all(parts);
    }
    case 'Number':
    case 'Boolean':
      return makeKey('equals', path, literal.value);
    default:
      return undefined;
  }
}

/** The cheapest set of keys of which an event must meet one for the need to hold, or undefined. */
export function cheapest(need: Need, cost: (key: Key) => number): { keys: Key[]; cost: number } | undefined {
  if (need.kind === 'key') return { keys: [need.key], cost: cost(need.key) };
  if (need.kind === 'all') {
    let best: { keys: Key[]; cost: number } | undefined;
    for (const part of need.parts) {
      const choice = cheapest(part, cost);
      if (choice !== undefined && (best === undefined || choice.cost < best.cost)) best = choice;
    }
    return best;
  }
  const keys: Key[] = [];
  let total = 0;
  for (const part of need.parts) {
    const choice = cheapest(part, cost);
    if (choice === undefined) return undefined;
    keys.push(...choice.keys);
    total += choice.cost;
  }
  return { keys, cost: total };
}

/**
 * A second choice of keys for a rule whose need is an AND: the cheapest choice of another of its
 * parts than the one `cheapest` takes, of which an event must meet one too (the rule needs every
 * part). Parts that only need exact values are left to the guards (ruleGuards.ts), and parts
 * with a key not `allowed` are passed over. Undefined when there is none, or when its cost is not
 * below `below` (a key most events meet only costs).
 */
export function secondCheapest(
  need: Need,
  cost: (key: Key) => number,
  below: number,
  allowed: (key: Key) => boolean = () => true,
): { keys: Key[]; cost: number } | undefined {
  if (need.kind !== 'all') return undefined;
  // the parts of nested ANDs are parts too (`cheapest` takes the same minimum through them)
  const parts: Need[] = [];
  const flatten = (n: Need): void => {
    if (n.kind === 'all') n.parts.forEach(flatten);
    else parts.push(n);
  };
  flatten(need);
  let best: { keys: Key[]; cost: number } | undefined;
  let first = -1;
  const choices = parts.map((part, n) => {
    const choice = cheapest(part, cost);
    if (choice !== undefined && (best === undefined || choice.cost < best.cost)) {
      best = choice;
      first = n;
    }
    return choice;
  });
  // the first choice is that of part `first` (cheapest takes the first of equal costs too)
  let second: { keys: Key[]; cost: number } | undefined;
  choices.forEach((choice, n) => {
    if (choice === undefined || n === first || choice.keys.every((k) => k.kind === 'equals')) return;
    if (!choice.keys.every(allowed)) return;
    if (choice.cost < below && (second === undefined || choice.cost < second.cost)) second = choice;
  });
  return second;
}
