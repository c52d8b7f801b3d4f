import type { Pipeline, Query, ScalarLiteral } from './ast.ts';
import { lowerCase } from './query.ts';
import { requiredLiteral } from './regex.ts';
import { getPath, isCanonicalNumeral, isObject } from './values.ts';
import type { JsonObject } from './values.ts';
import { hasWildcard, wildcardParts } from './wildcard.ts';

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
 * A condition on one field that a rule may need to hold for it to match:
 * - `equals`: the field (or an element of it) `=`-equals the value;
 * - `prefix` / `suffix` / `contains`: the field (or an element of it) is a string that starts
 *   with / ends with / contains the text (never empty).
 */
interface Key {
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
type Need =
  { readonly kind: 'key'; readonly key: Key } | { readonly kind: 'all' | 'any'; readonly parts: readonly Need[] };

/** A string affix (prefix or suffix) and the rules that need it. */
interface Affix {
  readonly text: string;
  readonly positions: number[];
}

/** Substring keys that begin with the same `head` (their first HEAD_LENGTH characters, or all of a shorter one). */
interface ContainsGroup {
  readonly head: string;
  readonly affixes: Affix[];
  /**
   * With many keys in the group (a list of file hashes: `imphash=…` by the thousand): the keys
   * of at least `subLength` characters by a hash of their first `subLength`, and the shorter
   * ones (compared one by one).
   */
  sub: Map<number, Affix[]> | undefined;
  subLength: number;
  shortAffixes: Affix[];
}

/** A group with more keys than this is sub-indexed (ContainsGroup.sub). */
const SUB_INDEX = 3;

/** Keys shorter than this stay out of a group's sub-index (the head has HEAD_LENGTH characters). */
const SUB_MIN = 4;

function subIndex(group: ContainsGroup): void {
  if (group.affixes.length <= SUB_INDEX) return;
  const long = group.affixes.filter((a) => a.text.length >= SUB_MIN);
  if (long.length <= SUB_INDEX) return;
  // the hashed length: the shortest of the longer three quarters of the keys (at most 16)
  const lengths = long.map((a) => a.text.length).sort((a, b) => a - b);
  group.subLength = Math.min(16, lengths[Math.floor(lengths.length / 4)] as number);
  group.shortAffixes = group.affixes.filter((a) => a.text.length < group.subLength);
  group.sub = new Map();
  for (const affix of group.affixes) {
    if (affix.text.length < group.subLength) continue;
    const hash = affixHash(affix.text, group.subLength, false);
    const bucket = group.sub.get(hash);
    if (bucket === undefined) group.sub.set(hash, [affix]);
    else bucket.push(affix);
  }
}

/**
 * Substring keys are grouped by their first characters: one search for the head per group, then
 * each key is compared where the head occurs (" -enc" and " -encodedcommand" share one search).
 */
const HEAD_LENGTH = 3;

/** Above this many substring groups on a field, the text is scanned once instead of searched per group. */
const SCAN_GROUPS = 12;

/** A hash of the HEAD_LENGTH characters of `text` at `at` (the caller ensures they exist). */
function headHash(text: string, at: number): number {
  return (Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 1), 31) + text.charCodeAt(at + 2)) | 0;
}

/**
 * Rules keyed by affixes of one kind: found by a hash of the event string's first (or last) L
 * characters, for each distinct affix length L, then checked with startsWith (endsWith). The
 * hash is computed char by char: no substring is allocated.
 */
interface AffixIndex {
  /** isLength[L] is 1 when some affix has L characters. */
  readonly isLength: Uint8Array;
  readonly maxLength: number;
  readonly buckets: Map<number, Affix[]>;
  /** bloom[hash & 0xffff] is 1 when some affix may have the hash. */
  readonly bloom: Uint8Array;
}

/**
 * The rules indexed under one field. Keys are exact for `=`: a string literal matches only that
 * string; a number literal matches that number and its canonical numeral (pdl.md, "Typing"), so
 * an event string is also looked up in `numbers` when it is a canonical numeral. String keys may
 * also be prefixes, suffixes or substrings (from wildcards and `?=`).
 */
interface FieldIndex {
  readonly path: readonly string[];
  /** Holds the keys of case-insensitive literals: event strings are lower-cased before the look-up. */
  readonly caseless: boolean;
  /** The key of a one-level path (read directly), else undefined. */
  readonly key: string | undefined;
  readonly strings: Map<string, number[]>;
  /** Map keys compare like `=` on numbers: -0 is 0. */
  readonly numbers: Map<number, number[]>;
  trueRules: number[] | undefined;
  falseRules: number[] | undefined;
  prefixes: AffixIndex | undefined;
  suffixes: AffixIndex | undefined;
  contains: ContainsGroup[] | undefined;
  /**
   * With many substring groups: the groups with a full head, by a hash of it. The text is then
   * scanned once, position by position (a hash of the 3 characters there), instead of one search
   * per group; `shortByFirst` holds the groups with shorter heads (one or two characters: an
   * emoji, a homoglyph, `^^`), by their first character, and `starts` flags every character
   * that begins some group's head (other positions are passed over).
   */
  containsByHead: Map<number, ContainsGroup[]> | undefined;
  /** headBloom[hash & 0xffff] is 1 when some head of containsByHead may have the hash: most positions stop there. */
  headBloom: Uint8Array | undefined;
  shortByFirst: Map<number, ContainsGroup[]> | undefined;
  starts: Uint8Array | undefined;
  /** Whether prefixes, suffixes or contains is set (strings need more than a Map lookup). */
  hasText: boolean;
}

/**
 * How likely an event is guessed to meet a key, without seeing events (only compared, not a
 * probability: a short substring's guess exceeds 1). The largest of:
 * - four times the share of the other rules that name the key (affixes counted twice, substrings
 *   four times): a key many rules name (a log source, `Channel = "…"`, `EventID = 1`) describes
 *   common events;
 * - for a text, the share of the other texts the rules require of the field that have it as the
 *   same prefix, suffix or (up to 6 characters) substring: when most of a field's values in the
 *   rules end with `.exe`, so do events', and `.exe` is a poor key;
 * - 1% for an exact value (booleans 50%); for a text, the product of its characters' chances
 *   (letters and digits 0.15, other ASCII 0.3, anything else 0.0002: logs are mostly ASCII), 64
 *   times that for a substring (it may start anywhere), twice for an affix.
 */
const SHARE_WEIGHT: Readonly<Record<Key['kind'], number>> = { equals: 1, prefix: 2, suffix: 2, contains: 4 };

function keyChance(key: Key, share: number, stats: TextStats | undefined): number {
  let base: number;
  if (key.kind === 'equals') base = typeof key.value === 'boolean' ? 0.5 : 0.01;
  else {
    const text = key.value as string;
    let p = 1;
    for (let i = 0; i < text.length && p > 1e-12; i++) {
      const c = text.charCodeAt(i);
      p *= c >= 0x80 ? 0.0002 : (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 0.15 : 0.3;
    }
    base = p * (key.kind === 'contains' ? 64 : 2);
    if (stats !== undefined && stats.values > 1) {
      const counts = key.kind === 'prefix' ? stats.prefixes : key.kind === 'suffix' ? stats.suffixes : stats.substrings;
      const count = counts.get(text.toLowerCase()) ?? 1;
      base = Math.max(base, (count - 1) / (stats.values - 1));
    }
  }
  return Math.max(base, 4 * share * SHARE_WEIGHT[key.kind]);
}

/** Of the distinct texts rules require of one field (lower-cased): how many have each short prefix, suffix, substring. */
interface TextStats {
  values: number;
  readonly prefixes: Map<string, number>;
  readonly suffixes: Map<string, number>;
  readonly substrings: Map<string, number>;
}

const STATS_AFFIX = 16;
const STATS_SUBSTRING = 6;

function textStats(keys: Iterable<Key>): Map<string, TextStats> {
  // per field: its distinct texts, and the texts of its affix and short substring keys to count
  interface Field {
    readonly stats: TextStats;
    readonly texts: Set<string>;
    readonly wanted: Readonly<Record<'prefix' | 'suffix' | 'contains', Set<string>>>;
    readonly lengths: Readonly<Record<'prefix' | 'suffix' | 'contains', Set<number>>>;
  }
  const fields = new Map<string, Field>();
  for (const key of keys) {
    if (typeof key.value !== 'string') continue;
    const id = fieldId(key.path);
    let field = fields.get(id);
    if (field === undefined) {
      field = {
        stats: { values: 0, prefixes: new Map(), suffixes: new Map(), substrings: new Map() },
        texts: new Set(),
        wanted: { prefix: new Set(), suffix: new Set(), contains: new Set() },
        lengths: { prefix: new Set(), suffix: new Set(), contains: new Set() },
      };
      fields.set(id, field);
    }
    const text = key.value.toLowerCase();
    field.texts.add(text);
    if (key.kind === 'equals' || (key.kind === 'contains' ? text.length > STATS_SUBSTRING : text.length > STATS_AFFIX))
      continue;
    field.wanted[key.kind].add(text);
    field.lengths[key.kind].add(text.length);
  }
  const byField = new Map<string, TextStats>();
  for (const [id, field] of fields) {
    const { stats, wanted, lengths } = field;
    stats.values = field.texts.size;
    const count = (map: Map<string, number>, piece: string): void => {
      map.set(piece, (map.get(piece) ?? 0) + 1);
    };
    for (const text of field.texts) {
      for (const n of lengths.prefix)
        if (n <= text.length && wanted.prefix.has(text.slice(0, n))) count(stats.prefixes, text.slice(0, n));
      for (const n of lengths.suffix)
        if (n <= text.length && wanted.suffix.has(text.slice(-n))) count(stats.suffixes, text.slice(-n));
      if (lengths.contains.size === 0) continue;
      const seen = new Set<string>();
      for (const n of lengths.contains) {
        for (let at = 0; at + n <= text.length; at++) {
          const piece = text.slice(at, at + n);
          if (wanted.contains.has(piece) && !seen.has(piece)) {
            seen.add(piece);
            count(stats.substrings, piece);
          }
        }
      }
    }
    byField.set(id, stats);
  }
  return byField;
}

/** Options of a RuleIndex. */
export interface RuleIndexOptions {
  /**
   * After this many events given to `select`, the index chooses every rule's key again by how
   * often those events met each key (counted on all the rules' keys while learning), instead of
   * the guess from the rules alone. 0: never. Default LEARN_EVENTS. Only the cost of `select`
   * depends on it, never which rules can match (every choice is sound).
   */
  readonly learnEvents?: number;
}

/** Events the index learns key rates from before it chooses its keys again (RuleIndexOptions.learnEvents). */
export const LEARN_EVENTS = 2000;

/** What the index counts while learning: every key any rule could be indexed by, and how many events met each. */
interface Census {
  readonly table: KeyTable;
  readonly keys: readonly Key[];
  readonly number: ReadonlyMap<string, number>;
  readonly hits: Uint32Array;
  readonly found: Int32Array;
  readonly marks: Uint32Array;
  seen: number;
  readonly goal: number;
}

/**
 * Rules indexed by conditions they need to match (from the first query stage): `field = literal`
 * and `field IN [literals]`, also with wildcards (a pattern's literal prefix, suffix or middle
 * text), `field ?= "text"` (a substring), and an `OR` whose every operand has such a condition.
 * Of each rule's choices, the one an event is least likely to meet is indexed: guessed from the
 * rules at first (keyChance), then learned from the events `select` saw (RuleIndexOptions).
 * Rules without one, correlation rules and empty slots are always candidates.
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
  #table: KeyTable = { fields: [], root: newPathNode() };
  #always: Int32Array = new Int32Array(0);
  // scratch state of select(): positions found through the fields, and marks against duplicates
  readonly #found: Int32Array;
  readonly #marks: Uint32Array;
  #epoch = 0;
  // guards: per rule, up to two more required `field = value` checked after the look-up (-1: none)
  #guards: GuardField[] = [];
  readonly #guardField: Int32Array;
  readonly #guardValue: Int32Array;
  readonly #guardField2: Int32Array;
  readonly #guardValue2: Int32Array;
  /** Per rule, its indexed keys and guards as text (keysOf); undefined: always a candidate. */
  readonly #described: ({ keys: readonly string[]; guards: readonly string[] } | undefined)[] = [];
  /** What each rule needs (undefined: nothing the index can use). */
  readonly #needs: readonly (Need | undefined)[];
  /** The guessed cost of a key (before learning). */
  readonly #guess: (key: Key) => number;
  /** While learning: the counts of every key. */
  #census: Census | undefined;
  /** Whether the keys were chosen by learned rates. */
  #learned = false;

  constructor(rules: readonly (IndexableRule | null | undefined)[], options: RuleIndexOptions = {}) {
    this.size = rules.length;
    this.selected = new Int32Array(rules.length);
    this.#found = new Int32Array(rules.length);
    this.#marks = new Uint32Array(rules.length);
    this.#guardField = new Int32Array(rules.length);
    this.#guardValue = new Int32Array(rules.length);
    this.#guardField2 = new Int32Array(rules.length);
    this.#guardValue2 = new Int32Array(rules.length);
    const needs = rules.map((rule) =>
      rule?.ast === undefined || rule.hasCorrelation === true ? undefined : pipelineNeed(rule.ast),
    );
    this.#needs = needs;

    // how many rules name each key, and how many distinct values each field is required to hold
    const frequency = new Map<string, number>();
    const keys = new Map<string, Key>();
    const distinct = new Map<string, number>();
    for (const need of needs) {
      const ids = new Set<string>();
      const collect = (n: Need): void => {
        if (n.kind !== 'key') for (const part of n.parts) collect(part);
        else if (!ids.has(n.key.id)) {
          ids.add(n.key.id);
          keys.set(n.key.id, n.key);
          const count = frequency.get(n.key.id) ?? 0;
          frequency.set(n.key.id, count + 1);
          const field = fieldId(n.key.path);
          if (count === 0) distinct.set(field, (distinct.get(field) ?? 0) + 1);
        }
      };
      if (need !== undefined) collect(need);
    }
    // a key's cost: how likely an event meets it (a guess, keyChance), less a trifle for a varied field
    const ruleCount = Math.max(1, rules.length);
    const stats = textStats(keys.values());
    this.#guess = (key: Key): number =>
      keyChance(key, ((frequency.get(key.id) ?? 1) - 1) / ruleCount, stats.get(fieldId(key.path))) +
      1e-6 / (2 + (distinct.get(fieldId(key.path)) ?? 0));
    this.indexedCount = this.#build(this.#guess, (key) => frequency.get(key.id) ?? 0);

    // learning needs a choice to make: a rule with two or more keys it could be indexed by
    const goal = options.learnEvents ?? LEARN_EVENTS;
    if (goal > 0 && frequency.size > this.indexedCount) {
      const all = [...keys.values()];
      this.#census = {
        table: buildTable(all.map((key, n) => [key, n] as const)),
        keys: all,
        number: new Map(all.map((key, n) => [key.id, n])),
        hits: new Uint32Array(all.length),
        found: new Int32Array(all.length),
        marks: new Uint32Array(all.length),
        seen: 0,
        goal,
      };
    }
  }

  /**
   * Chooses each rule's key (and guards) by `cost`, the guards among equal rank by `rank`, and
   * builds the look-up tables; returns how many rules are indexed.
   */
  #build(cost: (key: Key) => number, rank: (key: Key) => number): number {
    const entries: (readonly [Key, number])[] = [];
    const always: number[] = [];
    this.#guards = [];
    this.#guardField.fill(-1);
    this.#guardField2.fill(-1);
    this.#guardReadScratch = this.#metScratchA = this.#metScratchB = undefined;
    for (let position = 0; position < this.size; position++) {
      const need = this.#needs[position];
      const choice = need === undefined ? undefined : cheapest(need, cost);
      if (choice === undefined) {
        always.push(position);
        this.#described[position] = undefined;
        continue;
      }
      const guards = guardsOf(need as Need, choice.keys, rank);
      this.#described[position] = { keys: choice.keys.map(describeKey), guards: guards.map(describeKey) };
      guards.forEach((guard, n) => {
        const gid = (guard.caseless ? 'i\u0000' : '') + fieldId(guard.path);
        let g = this.#guards.findIndex((x) => x.id === gid);
        if (g === -1) {
          g = this.#guards.length;
          this.#guards.push({
            id: gid,
            path: guard.path,
            key: guard.path.length === 1 ? guard.path[0] : undefined,
            caseless: guard.caseless,
            strings: new Map(),
            numbers: new Map(),
            booleans: new Map(),
          });
        }
        (n === 0 ? this.#guardField : this.#guardField2)[position] = g;
        (n === 0 ? this.#guardValue : this.#guardValue2)[position] = guardValueId(
          this.#guards[g] as GuardField,
          guard.value,
        );
      });
      for (const key of choice.keys) entries.push([key, position]);
    }
    this.#table = buildTable(entries);
    this.#always = Int32Array.from(always);
    return this.size - always.length;
  }

  /** Counts the keys the event meets; after the goal, chooses the keys again by the counts. */
  #learn(census: Census, event: JsonObject): void {
    const marks = census.marks;
    const epoch = ++census.seen;
    const found = census.found;
    const hits = census.hits;
    const count = visit(census.table.root, event, found, 0, marks, epoch);
    for (let c = 0; c < count; c++) hits[found[c] as number]++;
    if (census.seen < census.goal) return;
    this.#census = undefined;
    // the share of events that met the key; the guess, weighted as one event, breaks ties
    const learned = (key: Key): number => {
      const n = census.number.get(key.id);
      return ((n === undefined ? 0 : (hits[n] as number)) + this.#guess(key)) / (census.seen + 1);
    };
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
    // with no rule always a candidate, collect straight into `selected`
    const found = always.length === 0 ? selected : this.#found;
    const marks = this.#marks;
    let epoch = ++this.#epoch;
    if (epoch === 0xffffffff) {
      marks.fill(0);
      this.#guardReadScratch?.fill(0);
      epoch = this.#epoch = 1;
    }
    let count = visit(this.#table.root, event, found, 0, marks, epoch);
    if (this.#guards.length > 0) count = this.#applyGuards(event, found, count, epoch);
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

  /** Drops the found rules whose guard (a required `field = value`) the event does not meet. */
  #applyGuards(event: Record<string, unknown>, found: Int32Array, count: number, epoch: number): number {
    const field = this.#guardField;
    const wanted = this.#guardValue;
    const field2 = this.#guardField2;
    const wanted2 = this.#guardValue2;
    const metA = this.#metA;
    const metB = this.#metB;
    const readAt = this.#guardRead;
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const position = found[c] as number;
      const g = field[position] as number;
      if (g !== -1) {
        // a guard field is read once per event, when a found rule first needs it
        if (readAt[g] !== epoch) this.#readGuard(g, event, epoch);
        const a = metA[g] as number;
        if (a !== ANY_GUARD && a !== wanted[position] && metB[g] !== wanted[position]) continue;
        const g2 = field2[position] as number;
        if (g2 !== -1) {
          if (readAt[g2] !== epoch) this.#readGuard(g2, event, epoch);
          const a2 = metA[g2] as number;
          if (a2 !== ANY_GUARD && a2 !== wanted2[position] && metB[g2] !== wanted2[position]) continue;
        }
      }
      found[kept++] = position;
    }
    return kept;
  }

  /** Which value of guard field `g` the event holds (metA, and metB for a numeral's number). */
  #readGuard(g: number, event: Record<string, unknown>, epoch: number): void {
    const guard = this.#guards[g] as GuardField;
    const metA = this.#metA;
    const metB = this.#metB;
    this.#guardRead[g] = epoch;
    const value = guard.key === undefined ? getPath(event, guard.path) : event[guard.key];
    metA[g] = -1;
    metB[g] = -1;
    switch (typeof value) {
      case 'string': {
        const text = guard.caseless ? lowerCase(value) : value;
        metA[g] = guard.strings.get(text) ?? -1;
        if (!guard.caseless && guard.numbers.size !== 0 && isCanonicalNumeral(value))
          metB[g] = guard.numbers.get(Number(value)) ?? -1;
        break;
      }
      case 'number':
        metA[g] = guard.numbers.get(value) ?? -1;
        break;
      case 'boolean':
        metA[g] = guard.booleans.get(value) ?? -1;
        break;
      default:
        // an array (any element may meet it) or an object: the guard cannot decide, keep the rules
        if (value !== undefined && value !== null && typeof value === 'object') metA[g] = metB[g] = ANY_GUARD;
    }
  }

  get #guardRead(): Uint32Array {
    return (this.#guardReadScratch ??= new Uint32Array(this.#guards.length));
  }

  #guardReadScratch: Uint32Array | undefined;

  get #metA(): Int32Array {
    return (this.#metScratchA ??= new Int32Array(this.#guards.length));
  }

  get #metB(): Int32Array {
    return (this.#metScratchB ??= new Int32Array(this.#guards.length));
  }

  #metScratchA: Int32Array | undefined;
  #metScratchB: Int32Array | undefined;

  /**
   * How the rule at `position` is indexed (for tests and tools): the keys of which an event must
   * meet one (`suffix Image i"\\cmd.exe"`) and the guards it must also meet; undefined when the
   * rule is a candidate for every event.
   */
  keysOf(position: number): { readonly keys: readonly string[]; readonly guards: readonly string[] } | undefined {
    return this.#described[position];
  }

  /** The positions `select` finds, as a new array (for tests and tools; hot paths use `select`). */
  candidates(event: unknown): number[] {
    return Array.from(this.selected.subarray(0, this.select(event)));
  }
}

// ---- guards ---------------------------------------------------------------------------------

/**
 * A field some rules require to equal a value besides their indexed key (a log-source condition
 * such as `EventID = 1` when the rule is indexed by its image): the values, numbered per field.
 */
interface GuardField {
  readonly id: string;
  readonly path: readonly string[];
  readonly key: string | undefined;
  readonly caseless: boolean;
  readonly strings: Map<string, number>;
  readonly numbers: Map<number, number>;
  readonly booleans: Map<boolean, number>;
}

/** The event's value meets every guard of the field (an array: any element could). */
const ANY_GUARD = -2;

function guardValueId(guard: GuardField, value: string | number | boolean): number {
  const map = (
    typeof value === 'string' ? guard.strings : typeof value === 'number' ? guard.numbers : guard.booleans
  ) as Map<typeof value, number>;
  let id = map.get(value);
  if (id === undefined) map.set(value, (id = guard.strings.size + guard.numbers.size + guard.booleans.size));
  return id;
}

/**
 * A rule's guards: of the exact `field = value` keys it requires at its top level (under AND) on
 * other fields than its indexed keys, the two of lowest rank (one per field): fewest rules share
 * them, or, once learned, fewest events met them. Sound: the rule
 * cannot match an event whose field (not an array) does not equal the value.
 */
function guardsOf(need: Need, chosen: readonly Key[], rank: (key: Key) => number): Key[] {
  const fields = new Set(chosen.map((k) => (k.caseless ? 'i\u0000' : '') + fieldId(k.path)));
  const keys: Key[] = [];
  const visit = (n: Need): void => {
    if (n.kind === 'all') {
      for (const part of n.parts) visit(part);
      return;
    }
    if (n.kind !== 'key' || n.key.kind !== 'equals') return;
    const field = (n.key.caseless ? 'i\u0000' : '') + fieldId(n.key.path);
    if (fields.has(field)) return;
    fields.add(field);
    keys.push(n.key);
  };
  visit(need);
  return keys.sort((a, b) => rank(a) - rank(b)).slice(0, 2);
}

// ---- what a rule needs ----------------------------------------------------------------------

const fieldId = (path: readonly string[]): string => path.join('\u0000');

const describeKey = (key: Key): string =>
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

/** The need of a pipeline: that of its first stage when it is a query (later stages only drop or change events). */
function pipelineNeed(pipeline: Pipeline): Need | undefined {
  const first = pipeline.stages[0];
  return first?.kind === 'QueryStage' ? queryNeed(first.query) : undefined;
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
function cheapest(need: Need, cost: (key: Key) => number): { keys: Key[]; cost: number } | undefined {
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

// ---- building -------------------------------------------------------------------------------

/** Keys by field, each with the positions (rules, or keys while learning) it stands for. */
interface KeyTable {
  readonly fields: readonly FieldIndex[];
  /** The fields by path, as a tree: each object on the way is read once per event. */
  readonly root: PathNode;
}

function buildTable(entries: Iterable<readonly [Key, number]>): KeyTable {
  const byField = new Map<string, FieldIndex>();
  const fields: FieldIndex[] = [];
  for (const [key, position] of entries) {
    const id = (key.caseless ? 'i\u0000' : '') + fieldId(key.path);
    let field = byField.get(id);
    if (field === undefined) {
      field = {
        path: key.path,
        caseless: key.caseless,
        key: key.path.length === 1 ? key.path[0] : undefined,
        strings: new Map(),
        numbers: new Map(),
        trueRules: undefined,
        falseRules: undefined,
        prefixes: undefined,
        suffixes: undefined,
        contains: undefined,
        containsByHead: undefined,
        headBloom: undefined,
        shortByFirst: undefined,
        starts: undefined,
        hasText: false,
      };
      byField.set(id, field);
      fields.push(field);
    }
    addPosition(field, key, position);
  }
  for (const field of fields) {
    const groups = field.contains;
    for (const group of groups ?? []) subIndex(group);
    if (groups === undefined || groups.length <= SCAN_GROUPS) continue;
    field.containsByHead = new Map();
    field.shortByFirst = new Map();
    field.starts = new Uint8Array(65536);
    field.headBloom = new Uint8Array(65536);
    for (const group of groups) {
      const first = group.head.charCodeAt(0);
      const short = group.head.length < HEAD_LENGTH;
      const map = short ? field.shortByFirst : field.containsByHead;
      const hash = short ? first : headHash(group.head, 0);
      if (short) field.starts[first] = 1;
      else field.headBloom[hash & 0xffff] = 1;
      const bucket = map.get(hash);
      if (bucket === undefined) map.set(hash, [group]);
      else bucket.push(group);
    }
  }
  const root = newPathNode();
  for (const field of fields) {
    let node = root;
    for (const key of field.path) {
      let child = node.children.get(key);
      if (child === undefined) {
        node.children.set(key, (child = newPathNode()));
        node.keys.push(key);
        node.nodes.push(child);
      }
      node = child;
    }
    node.fields.push(field);
  }
  return { fields, root };
}

function addPosition(field: FieldIndex, key: Key, position: number): void {
  const value = key.value;
  let list: number[] | undefined;
  if (key.kind !== 'equals') {
    const text = value as string;
    field.hasText = true;
    if (key.kind === 'contains') {
      const head = text.slice(0, HEAD_LENGTH);
      const groups = (field.contains ??= []);
      let group = groups.find((g) => g.head === head);
      if (group === undefined)
        groups.push((group = { head, affixes: [], sub: undefined, subLength: 0, shortAffixes: [] }));
      let affix = group.affixes.find((a) => a.text === text);
      if (affix === undefined) group.affixes.push((affix = { text, positions: [] }));
      list = affix.positions;
    } else {
      const fromEnd = key.kind === 'suffix';
      const index = fromEnd
        ? (field.suffixes = growAffixIndex(field.suffixes, text.length))
        : (field.prefixes = growAffixIndex(field.prefixes, text.length));
      const hash = affixHash(text, text.length, fromEnd);
      index.bloom[hash & 0xffff] = 1;
      let bucket = index.buckets.get(hash);
      if (bucket === undefined) index.buckets.set(hash, (bucket = []));
      let affix = bucket.find((a) => a.text === text);
      if (affix === undefined) bucket.push((affix = { text, positions: [] }));
      list = affix.positions;
    }
  } else if (typeof value === 'string') {
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
  // an IN list or an OR may name one key twice
  if (list[list.length - 1] !== position) list.push(position);
}

function growAffixIndex(index: AffixIndex | undefined, length: number): AffixIndex {
  if (index !== undefined && length <= index.maxLength) {
    index.isLength[length] = 1;
    return index;
  }
  const isLength = new Uint8Array(length + 1);
  if (index !== undefined) isLength.set(index.isLength);
  isLength[length] = 1;
  return {
    isLength,
    maxLength: length,
    buckets: index?.buckets ?? new Map(),
    bloom: index?.bloom ?? new Uint8Array(65536),
  };
}

/** The hash of the first (or last) `length` characters of `text`; the same steps as in `addAffixes`. */
function affixHash(text: string, length: number, fromEnd: boolean): number {
  let hash = 0;
  for (let i = 0; i < length; i++)
    hash = (Math.imul(hash, 31) + text.charCodeAt(fromEnd ? text.length - 1 - i : i)) | 0;
  return hash;
}

// ---- selecting ------------------------------------------------------------------------------

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

/** A level of the indexed fields' paths: the fields that end here and the keys below. */
interface PathNode {
  readonly fields: FieldIndex[];
  readonly children: Map<string, PathNode>;
  readonly keys: string[];
  readonly nodes: PathNode[];
}

const newPathNode = (): PathNode => ({ fields: [], children: new Map(), keys: [], nodes: [] });

/** Above this many keys at a level, the event object's own keys are walked instead (fewer, usually). */
const WALK_OBJECT_KEYS = 8;

/**
 * Meets the fields below `node` in the object `value`: each key is read as `getPath` reads it
 * (an inherited value counts only where `getPath` would take it), so the index sees what the rules see.
 */
function visit(
  node: PathNode,
  value: JsonObject,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  if (node.keys.length > WALK_OBJECT_KEYS) {
    for (const key in value) {
      const child = node.children.get(key);
      if (child !== undefined) count = visitChild(child, value, key, into, count, marks, epoch);
    }
    return count;
  }
  const keys = node.keys;
  for (let k = 0; k < keys.length; k++)
    count = visitChild(node.nodes[k] as PathNode, value, keys[k] as string, into, count, marks, epoch);
  return count;
}

function visitChild(
  child: PathNode,
  parent: JsonObject,
  key: string,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  const next = parent[key];
  if (next === undefined) return count;
  if (
    (typeof next === 'function' || key === '__proto__' || Object.getPrototypeOf(parent) !== Object.prototype) &&
    !Object.hasOwn(parent, key)
  )
    return count;
  const fields = child.fields;
  for (let f = 0; f < fields.length; f++) count = meet(fields[f] as FieldIndex, next, into, count, marks, epoch);
  if (child.keys.length !== 0 && typeof next === 'object' && next !== null && !Array.isArray(next))
    count = visit(child, next as JsonObject, into, count, marks, epoch);
  return count;
}

/** The rules of `field` that its value (or an element of it) meets. */
function meet(
  field: FieldIndex,
  value: unknown,
  found: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  const isArray = Array.isArray(value);
  const n = isArray ? value.length : 1;
  for (let i = 0; i < n; i++) {
    const element: unknown = isArray ? value[i] : value;
    let list: Positions | undefined;
    switch (typeof element) {
      case 'string':
        if (field.caseless) {
          const lower = lowerCase(element);
          if (field.hasText) count = addText(field, lower, found, count, marks, epoch);
          // a string's hash is computed on the first look-up: none for a field of only texts
          list = field.strings.size === 0 ? undefined : field.strings.get(lower);
          break;
        }
        if (field.numbers.size !== 0 && isCanonicalNumeral(element)) {
          const numbered = field.numbers.get(Number(element));
          if (numbered !== undefined) count = add(numbered, found, count, marks, epoch);
        }
        if (field.hasText) count = addText(field, element, found, count, marks, epoch);
        list = field.strings.size === 0 ? undefined : field.strings.get(element);
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
    if (list !== undefined) count = add(list, found, count, marks, epoch);
  }
  return count;
}

/** The rules whose prefix, suffix or substring keys the string meets. */
function addText(
  field: FieldIndex,
  text: string,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  if (field.prefixes !== undefined) count = addAffixes(field.prefixes, text, false, into, count, marks, epoch);
  if (field.suffixes !== undefined) count = addAffixes(field.suffixes, text, true, into, count, marks, epoch);
  const byHead = field.containsByHead;
  if (byHead !== undefined) {
    const bloom = field.headBloom as Uint8Array;
    for (let at = 0, last = text.length - HEAD_LENGTH; at <= last; at++) {
      const hash = headHash(text, at);
      if (bloom[hash & 0xffff] === 0) continue;
      const bucket = byHead.get(hash);
      if (bucket !== undefined) count = addGroupsAt(bucket, text, at, into, count, marks, epoch);
    }
    const byFirst = field.shortByFirst as Map<number, ContainsGroup[]>;
    if (byFirst.size !== 0) {
      const starts = field.starts as Uint8Array;
      for (let at = 0; at < text.length; at++) {
        const first = text.charCodeAt(at);
        if (starts[first] === 0) continue;
        const bucket = byFirst.get(first);
        if (bucket !== undefined) count = addGroupsAt(bucket, text, at, into, count, marks, epoch);
      }
    }
    return count;
  }
  const groups = field.contains;
  if (groups === undefined) return count;
  for (let g = 0; g < groups.length; g++) {
    const affixes = (groups[g] as ContainsGroup).affixes;
    if (affixes.length === 1) {
      const affix = affixes[0] as Affix;
      if (text.includes(affix.text)) count = add(affix.positions, into, count, marks, epoch);
      continue;
    }
    const group = groups[g] as ContainsGroup;
    for (let at = text.indexOf(group.head); at !== -1; at = text.indexOf(group.head, at + 1))
      count = addGroupAt(group, text, at, into, count, marks, epoch);
  }
  return count;
}

/** The rules of the substring keys of `groups` that start at `at` in `text`. */
function addGroupsAt(
  groups: readonly ContainsGroup[],
  text: string,
  at: number,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  for (let b = 0; b < groups.length; b++) {
    const group = groups[b] as ContainsGroup;
    if (text.startsWith(group.head, at)) count = addGroupAt(group, text, at, into, count, marks, epoch);
  }
  return count;
}

/** The rules of the group's keys that start at `at` (where its head is). */
function addGroupAt(
  group: ContainsGroup,
  text: string,
  at: number,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  const sub = group.sub;
  const affixes = sub === undefined ? group.affixes : group.shortAffixes;
  for (let a = 0; a < affixes.length; a++) {
    const affix = affixes[a] as Affix;
    if (text.startsWith(affix.text, at)) count = add(affix.positions, into, count, marks, epoch);
  }
  if (sub === undefined || at + group.subLength > text.length) return count;
  let hash = 0;
  for (let i = 0; i < group.subLength; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(at + i)) | 0;
  const bucket = sub.get(hash);
  if (bucket === undefined) return count;
  for (let a = 0; a < bucket.length; a++) {
    const affix = bucket[a] as Affix;
    if (text.startsWith(affix.text, at)) count = add(affix.positions, into, count, marks, epoch);
  }
  return count;
}

function addAffixes(
  index: AffixIndex,
  text: string,
  fromEnd: boolean,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  const isLength = index.isLength;
  const bloom = index.bloom;
  const limit = Math.min(index.maxLength, text.length);
  const last = text.length - 1;
  let hash = 0;
  for (let i = 0; i < limit;) {
    hash = (Math.imul(hash, 31) + text.charCodeAt(fromEnd ? last - i : i)) | 0;
    i++;
    if (isLength[i] === 0 || bloom[hash & 0xffff] === 0) continue;
    const bucket = index.buckets.get(hash);
    if (bucket === undefined) continue;
    for (let b = 0; b < bucket.length; b++) {
      const affix = bucket[b] as Affix;
      if (fromEnd ? text.endsWith(affix.text) : text.startsWith(affix.text))
        count = add(affix.positions, into, count, marks, epoch);
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
