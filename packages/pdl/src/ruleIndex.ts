import type { Pipeline } from './ast.ts';
import { requiredEqualities } from './requiredEqualities.ts';
import type { RequiredEquality } from './requiredEqualities.ts';
import { getPath, isCanonicalNumeral, isObject } from './values.ts';

/**
 * What the index needs of a rule: its AST (a CompiledPdl has one) and whether it keeps
 * correlation state. A rule without an AST, a correlation rule, or a null/undefined slot (say, a
 * rule that is missing or disabled: the caller still wants to meet it in order) is always a
 * candidate.
 */
export interface IndexableRule {
  readonly ast?: Pipeline;
  readonly hasCorrelation?: boolean;
}

type Positions = readonly number[];

/**
 * The rules indexed under one field. Keys are exact for `=`: a string literal matches only that
 * string; a number literal matches that number and its canonical numeral (pdl.md, "Typing"), so
 * an event string is also looked up in `numbers` when it is a canonical numeral.
 */
interface FieldIndex {
  readonly path: readonly string[];
  /** The key of a one-level path (read directly), else undefined. */
  readonly key: string | undefined;
  readonly strings: Map<string, number[]>;
  /** Map keys compare like `=` on numbers: -0 is 0. */
  readonly numbers: Map<number, number[]>;
  trueRules: number[] | undefined;
  falseRules: number[] | undefined;
}

/**
 * Rules indexed by one of their required equalities (`requiredEqualities`: the top-level AND-ed
 * `=` and `IN` literals of a first query stage), so that an event meets only the rules that can
 * match it. Of each rule's entries, the one whose values fewest rules require is indexed (on a
 * tie, the field required to hold more distinct values): field path → value → rule positions.
 * Rules without an entry, correlation rules and empty slots are always candidates.
 *
 * Sound: a rule is left out only when the event's field (or every element of it, for an array
 * field; or the field is missing) `=`-differs from every value of the indexed entry, which the
 * rule requires to match.
 */
export class RuleIndex {
  /** How many rules were given. */
  readonly size: number;
  /** How many of them are indexed (the rest are always candidates). */
  readonly indexedCount: number;
  /**
   * Where `select(event)` puts the positions it finds: `selected[0]` … `selected[n - 1]`.
   * Reused: valid until the next call.
   */
  readonly selected: Int32Array;
  readonly #fields: FieldIndex[] = [];
  readonly #always: Int32Array;
  // scratch state of select(): positions found through the fields, and marks against duplicates
  readonly #found: Int32Array;
  readonly #marks: Uint32Array;
  #epoch = 0;

  constructor(rules: readonly (IndexableRule | null | undefined)[]) {
    this.size = rules.length;
    this.selected = new Int32Array(rules.length);
    this.#found = new Int32Array(rules.length);
    this.#marks = new Uint32Array(rules.length);
    const required = rules.map((rule) => (rule?.ast === undefined || rule.hasCorrelation === true ? [] : requiredEqualities(rule.ast)));

    // how many rules require each field = value, and how many distinct values each field has
    const fieldKey = (entry: RequiredEquality): string => entry.path.join('\u0000');
    const keysOf = (entry: RequiredEquality): Set<string> =>
      new Set(entry.values.map((v) => `${fieldKey(entry)}\u0000\u0000${typeof v === 'string' ? 's' : 'v'}:${String(v)}`));
    const frequency = new Map<string, number>();
    const distinct = new Map<string, number>();
    for (const entries of required) {
      for (const entry of entries) {
        for (const key of keysOf(entry)) {
          const count = frequency.get(key) ?? 0;
          frequency.set(key, count + 1);
          if (count === 0) distinct.set(fieldKey(entry), (distinct.get(fieldKey(entry)) ?? 0) + 1);
        }
      }
    }

    const byField = new Map<string, FieldIndex>();
    const always: number[] = [];
    for (let position = 0; position < rules.length; position++) {
      let best: RequiredEquality | undefined;
      let bestCost = Infinity;
      let bestVariety = 0;
      for (const entry of required[position] as RequiredEquality[]) {
        let cost = 0;
        for (const key of keysOf(entry)) cost += frequency.get(key) ?? 0;
        const variety = distinct.get(fieldKey(entry)) ?? 0;
        if (cost < bestCost || (cost === bestCost && variety > bestVariety)) {
          best = entry;
          bestCost = cost;
          bestVariety = variety;
        }
      }
      if (best === undefined) {
        always.push(position);
        continue;
      }
      const key = fieldKey(best);
      let field = byField.get(key);
      if (field === undefined) {
        field = {
          path: best.path,
          key: best.path.length === 1 ? best.path[0] : undefined,
          strings: new Map(),
          numbers: new Map(),
          trueRules: undefined,
          falseRules: undefined,
        };
        byField.set(key, field);
        this.#fields.push(field);
      }
      for (const value of best.values) addPosition(field, value, position);
    }
    this.indexedCount = rules.length - always.length;
    this.#always = Int32Array.from(always);
  }

  /**
   * Selects the rules the event may match and returns how many: their positions are
   * `selected[0]` … `selected[n - 1]`, ascending (the given order), without duplicates.
   * Allocation-free.
   */
  select(event: unknown): number {
    const selected = this.selected;
    const always = this.#always;
    const fields = this.#fields;
    if (fields.length === 0 || !isObject(event)) {
      selected.set(always);
      return always.length;
    }
    // with no rule always a candidate, collect straight into `selected`
    const found = always.length === 0 ? selected : this.#found;
    const marks = this.#marks;
    let epoch = ++this.#epoch;
    if (epoch === 0xffffffff) {
      marks.fill(0);
      epoch = this.#epoch = 1;
    }
    let count = 0;
    let lists = 0;
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f] as FieldIndex;
      // no ownership test: an inherited value (a function, an object) finds nothing
      const value = field.key === undefined ? getPath(event, field.path) : event[field.key];
      if (value === undefined) continue;
      const isArray = Array.isArray(value);
      const n = isArray ? value.length : 1;
      for (let i = 0; i < n; i++) {
        const element: unknown = isArray ? value[i] : value;
        let list: Positions | undefined;
        switch (typeof element) {
          case 'string':
            if (field.numbers.size !== 0 && isCanonicalNumeral(element)) {
              const numbered = field.numbers.get(Number(element));
              if (numbered !== undefined) {
                count = add(numbered, found, count, marks, epoch);
                lists++;
              }
            }
            list = field.strings.get(element);
            break;
          case 'number':
            list = field.numbers.get(element);
            break;
          case 'boolean':
            list = element ? field.trueRules : field.falseRules;
            break;
          default:
            list = undefined;
        }
        if (list !== undefined) {
          count = add(list, found, count, marks, epoch);
          lists++;
        }
      }
    }
    // one list is ascending already; several are put in order (they are short)
    if (lists > 1) sortPrefix(found, count);
    if (found === selected) return count;
    // merge with the rules always selected (a position is either indexed or always selected)
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < count && j < always.length) {
      const a = found[i] as number;
      const b = always[j] as number;
      if (a < b) {
        selected[n++] = a;
        i++;
      } else {
        selected[n++] = b;
        j++;
      }
    }
    while (i < count) selected[n++] = found[i++] as number;
    while (j < always.length) selected[n++] = always[j++] as number;
    return n;
  }

  /** The positions `select` finds, as a new array (for tests and tools; hot paths use `select`). */
  candidates(event: unknown): number[] {
    return Array.from(this.selected.subarray(0, this.select(event)));
  }
}

function addPosition(field: FieldIndex, value: string | number | boolean, position: number): void {
  let list: number[] | undefined;
  if (typeof value === 'string') {
    list = field.strings.get(value);
    if (list === undefined) field.strings.set(value, (list = []));
  } else if (typeof value === 'number') {
    list = field.numbers.get(value);
    if (list === undefined) field.numbers.set(value, (list = []));
  } else if (value) {
    list = field.trueRules ??= [];
  } else {
    list = field.falseRules ??= [];
  }
  // an IN list may name one value twice
  if (list[list.length - 1] !== position) list.push(position);
}

/** Appends the positions of `list` not yet seen for this event; returns the new count. */
function add(list: Positions, into: Int32Array, count: number, marks: Uint32Array, epoch: number): number {
  for (let i = 0; i < list.length; i++) {
    const position = list[i] as number;
    if (marks[position] !== epoch) {
      marks[position] = epoch;
      into[count++] = position;
    }
  }
  return count;
}

function sortPrefix(values: Int32Array, count: number): void {
  if (count > 32) {
    values.subarray(0, count).sort();
    return;
  }
  for (let i = 1; i < count; i++) {
    const v = values[i] as number;
    let j = i - 1;
    while (j >= 0 && (values[j] as number) > v) {
      values[j + 1] = values[j] as number;
      j--;
    }
    values[j + 1] = v;
  }
}
