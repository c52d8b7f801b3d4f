import { walkEvent } from './eventWalk.ts';
import { buildTable } from './keyTable.ts';
import type { KeyTable } from './keyTable.ts';
import type { Key, Need } from './requiredConditions.ts';
import { fieldId } from './requiredConditions.ts';
import type { JsonObject } from './values.ts';

/**
 * The statistics RuleIndex chooses keys by: how likely an event is to meet a key, guessed from
 * the rules alone (how many rules name it, how its text compares with the field's other texts),
 * then learned from the events seen (a census of every key any rule could be indexed by).
 */

/** Every key the rules could be indexed by (by id), how many rules name each, how many distinct keys each field has. */
export interface RuleKeys {
  readonly keys: ReadonlyMap<string, Key>;
  readonly frequency: ReadonlyMap<string, number>;
  readonly distinct: ReadonlyMap<string, number>;
}

/** The keys of the rules' needs (undefined: a rule that needs nothing the index can use). */
export function ruleKeys(needs: readonly (Need | undefined)[]): RuleKeys {
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
  return { keys, frequency, distinct };
}

/**
 * A key's cost before learning, among the keys of `ruleCount` rules: how likely an event meets
 * it (a guess, keyChance), less a trifle for a varied field.
 */
export function guessedCost(named: RuleKeys, ruleCount: number): (key: Key) => number {
  const { frequency, distinct } = named;
  const rules = Math.max(1, ruleCount);
  const stats = textStats(named.keys.values());
  return (key: Key): number =>
    keyChance(key, ((frequency.get(key.id) ?? 1) - 1) / rules, stats.get(fieldId(key.path))) +
    1e-6 / (2 + (distinct.get(fieldId(key.path)) ?? 0));
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

export function keyChance(key: Key, share: number, stats: TextStats | undefined): number {
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
export interface TextStats {
  values: number;
  readonly prefixes: Map<string, number>;
  readonly suffixes: Map<string, number>;
  readonly substrings: Map<string, number>;
}

const STATS_AFFIX = 16;
const STATS_SUBSTRING = 6;

export function textStats(keys: Iterable<Key>): Map<string, TextStats> {
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

/** What the index counts while learning: every key any rule could be indexed by, and how many events met each. */
export interface Census {
  readonly table: KeyTable;
  readonly keys: readonly Key[];
  readonly number: ReadonlyMap<string, number>;
  readonly hits: Uint32Array;
  readonly found: Int32Array;
  readonly marks: Uint32Array;
  seen: number;
  readonly goal: number;
}

/** The table of `keys`, each standing for its number (its position in `keys`). */
export const keysTable = (keys: readonly Key[]): KeyTable => buildTable(keys.map((key, n) => [key, n] as const));

/** A census of `keys` that ends after `goal` events; `table`: their keysTable, when already built. */
export function newCensus(keys: readonly Key[], goal: number, table: KeyTable = keysTable(keys)): Census {
  return {
    table,
    keys,
    number: new Map(keys.map((key, n) => [key.id, n])),
    hits: new Uint32Array(keys.length),
    found: new Int32Array(keys.length),
    marks: new Uint32Array(keys.length),
    seen: 0,
    goal,
  };
}

/** Counts the keys the event meets; true when the census has seen its goal of events. */
export function countEvent(census: Census, event: JsonObject): boolean {
  const marks = census.marks;
  const epoch = ++census.seen;
  const found = census.found;
  const hits = census.hits;
  const count = walkEvent(census.table, event, found, 0, marks, epoch);
  for (let c = 0; c < count; c++) hits[found[c] as number]++;
  return census.seen >= census.goal;
}

/** A key's learned cost: the share of the events seen that met it; the guess, weighted as one event, breaks ties. */
export function learnedCost(census: Census, guess: (key: Key) => number): (key: Key) => number {
  return (key: Key): number => {
    const n = census.number.get(key.id);
    return ((n === undefined ? 0 : (census.hits[n] as number)) + guess(key)) / (census.seen + 1);
  };
}
