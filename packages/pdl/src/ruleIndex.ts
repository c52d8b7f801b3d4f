import type { Pipeline } from './ast.ts';
import { walkEvent } from './eventWalk.ts';
import { countEvent, guessedCost, keysTable, learnedCost, newCensus, ruleKeys } from './keyStatistics.ts';
import type { Census } from './keyStatistics.ts';
import { emptyTable, projectTable } from './keyTable.ts';
import type { KeyTable } from './keyTable.ts';
import { cheapest, describeKey, indexedFieldId, pipelineNeed, secondCheapest } from './requiredConditions.ts';
import type { Key, Need } from './requiredConditions.ts';
import { guardsOf, RuleGuards } from './ruleGuards.ts';
import { isObject } from './values.ts';
import type { JsonObject } from './values.ts';

/**
 * What the index needs of a rule: its AST (a CompiledPdl has one) and whether it keeps
 * correlation state. A rule without an AST or a correlation rule is always a candidate.
 */
export interface IndexableRule {
  readonly ast?: Pipeline;
  readonly hasCorrelation?: boolean;
}

/**
 * A position without a rule to match, said explicitly: `'always'`, a candidate for every event
 * (APPLY_RULES: a disabled or missing rule it counts as skipped on each record); `'never'`, a
 * candidate for no event (a backtest's disabled rule). null and undefined are refused (a
 * TypeError): whether an empty slot is met is the caller's choice, not a default.
 */
export type RuleSlot = 'always' | 'never';

/** What RuleIndex is built from, per position. */
export type IndexEntry = IndexableRule | RuleSlot;

/** Options of a RuleIndex. */
export interface RuleIndexOptions {
  /**
   * After this many events given to `select`, the index chooses every rule's key again by how
   * often those events met each key (counted on all the rules' keys while learning), instead of
   * the guess from the rules alone. 0: never. Default LEARN_EVENTS. Only the cost of `select`
   * depends on it, never which rules can match (every choice is sound).
   */
  readonly learnEvents?: number;
  /**
   * A rule whose need is an AND gets a second choice of keys, from another of its parts, when an
   * event is guessed (or, after learning, seen) to meet it less often than this share, and when
   * its keys are on fields the first choices already make the walk read (and search the same way:
   * a substring key where substrings are searched). Default
   * SECOND_KEY_BELOW; 0: no second keys. Only the cost of `select` depends on it.
   */
  readonly secondKeyBelow?: number;
}

/** How a rule is indexed (RuleIndex.keysOf). */
export interface IndexedAs {
  readonly keys: readonly string[];
  readonly guards: readonly string[];
  readonly second?: readonly string[];
}

/**
 * A rule gets a second choice of keys only when an event is guessed (or, after learning, seen) to
 * meet it less often than this (RuleIndexOptions.secondKeyBelow): a second key most events meet
 * costs a look-up and prunes nothing.
 */
export const SECOND_KEY_BELOW = 0.2;

/** Events the index learns key rates from before it chooses its keys again (RuleIndexOptions.learnEvents). */
export const LEARN_EVENTS = 2000;

/**
 * Rules indexed by conditions they need to match (from the first query stage): `field = literal`
 * and `field IN [literals]`, also with wildcards (a pattern's literal prefix, suffix or middle
 * text), `field ?= "text"` (a substring), and an `OR` whose every operand has such a condition.
 * Of each rule's choices, the one an event is least likely to meet is indexed: guessed from the
 * rules at first (keyChance), then learned from the events `select` saw (RuleIndexOptions).
 * Rules without one, correlation rules and `'always'` slots are always candidates; `'never'`
 * slots are never.
 *
 * Sound: a rule is left out only when no element of the event's field (the field itself if not
 * an array) meets any key of the rule's indexed choice, which the rule needs to match.
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
  /** The indexed keys, by field. */
  #table: KeyTable = emptyTable();
  /**
   * Every key the rules could be indexed by, each standing for its number (`#keyNumber`): built
   * once, the text automata too; the table of the keys chosen (before and after learning) is
   * taken from it (projectTable), and the census counts with it while learning.
   */
  readonly #keysTable: KeyTable;
  /** The number of each key (by id) in `#keysTable`. */
  readonly #keyNumber: ReadonlyMap<string, number>;
  #always: Int32Array = new Int32Array(0);
  // scratch state of select(): positions found through the fields, and marks against duplicates
  readonly #found: Int32Array;
  readonly #marks: Uint32Array;
  #epoch = 0;
  /** Per rule, up to two more required `field = value` checked after the look-up. */
  readonly #guards: RuleGuards;
  /** Per rule, its indexed keys and guards as text (keysOf); undefined: always a candidate. */
  readonly #described: (IndexedAs | undefined)[] = [];
  /** Per rule, 1 when it has a second choice of keys (positions `size + position` in the table). */
  readonly #second: Uint8Array;
  /** How many rules have a second choice of keys. */
  #secondCount = 0;
  /** RuleIndexOptions.secondKeyBelow. */
  readonly #secondBelow: number;
  /** What each rule needs (undefined: nothing the index can use). */
  readonly #needs: readonly (Need | undefined)[];
  /** The guessed cost of a key (before learning). */
  readonly #guess: (key: Key) => number;
  /** While learning: the counts of every key. */
  #census: Census | undefined;
  /** Whether the keys were chosen by learned rates. */
  #learned = false;
  /** Per position, whether it is a `'never'` slot. */
  readonly #never: readonly boolean[];

  constructor(rules: readonly IndexEntry[], options: RuleIndexOptions = {}) {
    this.size = rules.length;
    rules.forEach((rule, position) => {
      if (rule === null || rule === undefined)
        throw new TypeError(`RuleIndex: the rule at position ${position} is ${String(rule)}; pass 'always' or 'never'`);
    });
    this.#never = rules.map((rule) => rule === 'never');
    this.selected = new Int32Array(rules.length);
    // a rule's second keys stand in the table for position `size + position`
    this.#found = new Int32Array(2 * rules.length);
    this.#marks = new Uint32Array(2 * rules.length);
    this.#second = new Uint8Array(rules.length);
    this.#secondBelow = options.secondKeyBelow ?? SECOND_KEY_BELOW;
    this.#guards = new RuleGuards(rules.length);
    const needs = rules.map((rule) =>
      typeof rule === 'string' || rule.ast === undefined || rule.hasCorrelation === true
        ? undefined
        : pipelineNeed(rule.ast),
    );
    this.#needs = needs;
    const named = ruleKeys(needs);
    const keys = [...named.keys.values()];
    this.#keyNumber = new Map(keys.map((key, n) => [key.id, n]));
    this.#keysTable = keysTable(keys);
    this.#guess = guessedCost(named, rules.length);
    this.indexedCount = this.#build(this.#guess, (key) => named.frequency.get(key.id) ?? 0);

    // learning needs a choice to make: a rule with two or more keys it could be indexed by
    const goal = options.learnEvents ?? LEARN_EVENTS;
    if (goal > 0 && named.frequency.size > this.indexedCount) this.#census = newCensus(keys, goal, this.#keysTable);
  }

  /**
   * Chooses each rule's key (and guards) by `cost`, the guards among equal rank by `rank`, and
   * builds the look-up tables; returns how many rules are indexed.
   */
  #build(costOf: (key: Key) => number, rankOf: (key: Key) => number): number {
    const cost = memoized(costOf);
    const rank = rankOf === costOf ? cost : memoized(rankOf);
    // per key number: the positions it stands for in the table of the chosen keys
    const byKey: number[][] = [];
    const entry = (key: Key, position: number): void => {
      const n = this.#keyNumber.get(key.id) as number;
      const list = (byKey[n] ??= []);
      // an IN list or an OR may name one key twice
      if (list[list.length - 1] !== position) list.push(position);
    };
    const always: number[] = [];
    this.#guards.clear();
    this.#second.fill(0);
    this.#secondCount = 0;
    const chosen: ({ keys: Key[] } | undefined)[] = [];
    // what the first choices make the walk read: a field, and the kinds of text search on it
    const walked = new Set<string>();
    for (let position = 0; position < this.size; position++) {
      const need = this.#needs[position];
      const choice = need === undefined || this.#never[position] === true ? undefined : cheapest(need, cost);
      chosen.push(choice);
      for (const key of choice?.keys ?? []) {
        walked.add(indexedFieldId(key));
        walked.add(`${key.kind}\u0000${indexedFieldId(key)}`);
      }
    }
    // a second key only where the walk goes anyway: no field read or text scanned for it alone
    const cheapToWalk = (key: Key): boolean =>
      walked.has(key.kind === 'equals' ? indexedFieldId(key) : `${key.kind}\u0000${indexedFieldId(key)}`);
    for (let position = 0; position < this.size; position++) {
      const need = this.#needs[position];
      const choice = chosen[position];
      if (this.#never[position] === true) {
        this.#described[position] = { keys: [], guards: [] };
        continue;
      }
      if (choice === undefined) {
        always.push(position);
        this.#described[position] = undefined;
        continue;
      }
      const guards = guardsOf(need as Need, choice.keys, rank);
      const second = secondCheapest(need as Need, cost, this.#secondBelow, cheapToWalk);
      this.#described[position] = {
        keys: choice.keys.map(describeKey),
        guards: guards.map(describeKey),
        ...(second === undefined ? {} : { second: second.keys.map(describeKey) }),
      };
      this.#guards.set(position, guards);
      for (const key of choice.keys) entry(key, position);
      if (second !== undefined) {
        this.#second[position] = 1;
        this.#secondCount++;
        for (const key of second.keys) entry(key, this.size + position);
      }
    }
    // a list of the keys table holds key numbers (one, or more for one value met by several keys)
    this.#table = projectTable(this.#keysTable, (list) => {
      if (list.length === 1) return byKey[list[0] as number];
      const positions = new Set<number>();
      for (const n of list) for (const position of byKey[n] ?? []) positions.add(position);
      return [...positions];
    });
    this.#always = Int32Array.from(always);
    return this.size - always.length;
  }

  /** Counts the keys the event meets; after the goal, chooses the keys again by the counts. */
  #learn(census: Census, event: JsonObject): void {
    if (!countEvent(census, event)) return;
    this.#census = undefined;
    const learned = learnedCost(census, this.#guess);
    this.#build(learned, learned);
    this.#learned = true;
  }

  /** Whether the keys were chosen again from the events seen (RuleIndexOptions.learnEvents). */
  get learned(): boolean {
    return this.#learned;
  }

  /**
   * Selects the rules the event may match and returns how many: their positions are
   * `selected[0]` … `selected[n - 1]`, ascending (the given order), without duplicates.
   * Allocation-free (but for the one time the keys are chosen again, after learning).
   */
  select(event: unknown): number {
    const selected = this.selected;
    if (this.#census !== undefined && isObject(event)) this.#learn(this.#census, event);
    const always = this.#always;
    if (this.#table.fields.length === 0 || !isObject(event)) {
      selected.set(always);
      return always.length;
    }
    // with no rule always a candidate and no second keys, collect straight into `selected`
    const found = always.length === 0 && this.#secondCount === 0 ? selected : this.#found;
    const marks = this.#marks;
    let epoch = ++this.#epoch;
    if (epoch === 0xffffffff) {
      marks.fill(0);
      this.#guards.resetEpoch();
      epoch = this.#epoch = 1;
    }
    let count = walkEvent(this.#table, event, found, 0, marks, epoch);
    if (this.#secondCount > 0) count = this.#bothChoices(found, count, epoch);
    if (this.#guards.fieldCount > 0) count = this.#guards.apply(event, found, count, epoch);
    // positions arrive per list in order, the lists in any order: sort (they are short)
    sortPrefix(found, count);
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

  /**
   * Keeps of `found[0 … count)` the rules whose second keys the event met too (or that have none),
   * and drops the second keys' positions (`size + position`).
   */
  #bothChoices(found: Int32Array, count: number, epoch: number): number {
    const size = this.size;
    const second = this.#second;
    const marks = this.#marks;
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const position = found[c] as number;
      if (position >= size || (second[position] === 1 && marks[size + position] !== epoch)) continue;
      found[kept++] = position;
    }
    return kept;
  }

  /**
   * How the rule at `position` is indexed (for tests and tools): the keys of which an event must
   * meet one (`suffix Image i"\\cmd.exe"`), the guards it must also meet, and its second keys of
   * which it must meet one too (when it has some); no keys for a `'never'` slot; undefined when
   * the rule is a candidate for every event.
   */
  keysOf(position: number): IndexedAs | undefined {
    return this.#described[position];
  }

  /** The positions `select` finds, as a new array (for tests and tools; hot paths use `select`). */
  candidates(event: unknown): number[] {
    return Array.from(this.selected.subarray(0, this.select(event)));
  }
}

/** `cost` worked out once per key (by id): choosing keys asks for the same keys' costs many times. */
function memoized(cost: (key: Key) => number): (key: Key) => number {
  const known = new Map<string, number>();
  return (key) => {
    let value = known.get(key.id);
    if (value === undefined) known.set(key.id, (value = cost(key)));
    return value;
  };
}

/** Sorts `values[0 … count)` ascending. */
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
