import type { Key } from './requiredConditions.ts';
import { indexedFieldId } from './requiredConditions.ts';

/**
 * The key table of RuleIndex: the chosen keys by field, each with the positions (rules, or keys
 * while learning) it stands for, laid out for the event walk (eventWalk.ts): exact values in
 * maps, prefixes and suffixes by a hash of their characters, substrings grouped by their first
 * characters, and the fields' paths as a tree.
 */

/** Keys by field, each with the positions (rules, or keys while learning) it stands for. */
export interface KeyTable {
  readonly fields: readonly FieldIndex[];
  /** The fields by path, as a tree: each object on the way is read once per event. */
  readonly root: PathNode;
}

/** A level of the indexed fields' paths: the fields that end here and the keys below. */
export interface PathNode {
  readonly fields: FieldIndex[];
  readonly children: Map<string, PathNode>;
  readonly keys: string[];
  readonly nodes: PathNode[];
}

const newPathNode = (): PathNode => ({ fields: [], children: new Map(), keys: [], nodes: [] });

/** A table without keys. */
export const emptyTable = (): KeyTable => ({ fields: [], root: newPathNode() });

/** A string affix (prefix or suffix) and the rules that need it. */
export interface Affix {
  readonly text: string;
  readonly positions: number[];
}

/** Substring keys that begin with the same `head` (their first HEAD_LENGTH characters, or all of a shorter one). */
export interface ContainsGroup {
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
export const HEAD_LENGTH = 3;

/** Above this many substring groups on a field, the text is scanned once instead of searched per group. */
const SCAN_GROUPS = 12;

/** A hash of the HEAD_LENGTH characters of `text` at `at` (the caller ensures they exist). */
export function headHash(text: string, at: number): number {
  return (Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 1), 31) + text.charCodeAt(at + 2)) | 0;
}

/**
 * Rules keyed by affixes of one kind: found by a hash of the event string's first (or last) L
 * characters, for each distinct affix length L, then checked with startsWith (endsWith). The
 * hash is computed char by char: no substring is allocated.
 */
export interface AffixIndex {
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
export interface FieldIndex {
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

/** The table of the entries: each a key and a position it stands for (in any order; a position may repeat). */
export function buildTable(entries: Iterable<readonly [Key, number]>): KeyTable {
  const byField = new Map<string, FieldIndex>();
  const fields: FieldIndex[] = [];
  for (const [key, position] of entries) {
    const id = indexedFieldId(key);
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

/** The hash of the first (or last) `length` characters of `text`; the same steps as `addAffixes` (eventWalk.ts). */
function affixHash(text: string, length: number, fromEnd: boolean): number {
  let hash = 0;
  for (let i = 0; i < length; i++)
    hash = (Math.imul(hash, 31) + text.charCodeAt(fromEnd ? text.length - 1 - i : i)) | 0;
  return hash;
}
