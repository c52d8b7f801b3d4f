import type { Key } from './requiredConditions.ts';
import { indexedFieldId } from './requiredConditions.ts';
import { TextSearch } from './textAutomaton.ts';
import type { TextKey } from './textAutomaton.ts';

/**
 * The key table of RuleIndex: the chosen keys by field, each with the positions (rules, or keys
 * while learning) it stands for, laid out for the event walk (eventWalk.ts): exact values in
 * maps, prefixes, suffixes and substrings in one multi-pattern automaton per field (an
 * Aho-Corasick DFA, textAutomaton.ts), and the fields' paths as a tree.
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
  /** The prefix, suffix and substring keys by kind and text, while the table is built. */
  readonly textKeys: Map<string, TextKey>;
  /** The same keys in automata (textAutomaton.ts), set when `hasText`: an event string is read once by each. */
  text: TextSearch | undefined;
  /** Whether the field has prefix, suffix or substring keys (strings need more than a Map lookup). */
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
        textKeys: new Map(),
        text: undefined,
        hasText: false,
      };
      byField.set(id, field);
      fields.push(field);
    }
    addPosition(field, key, position);
  }
  for (const field of fields) {
    if (field.hasText) field.text = new TextSearch([...field.textKeys.values()], field.caseless);
    field.textKeys.clear();
  }
  return { fields, root: pathTree(fields) };
}

/**
 * The table of `full`'s keys standing for other positions: each position list of `full` mapped
 * by `positionsOf` (a key whose list maps to nothing or to an empty list is left out, and so is a
 * field left without keys). The text automata are shared with `full`, not built again
 * (TextAutomaton.project): RuleIndex builds the table of every key once (its positions the keys'
 * numbers) and takes from it the table of the keys it chooses, before and after learning.
 */
export function projectTable(
  full: KeyTable,
  positionsOf: (list: readonly number[]) => readonly number[] | undefined,
): KeyTable {
  const kept = (list: readonly number[] | undefined): number[] | undefined => {
    const positions = list === undefined ? undefined : positionsOf(list);
    return positions === undefined || positions.length === 0 ? undefined : (positions as number[]);
  };
  const mapValues = <K>(map: ReadonlyMap<K, number[]>): Map<K, number[]> => {
    const out = new Map<K, number[]>();
    for (const [value, list] of map) {
      const positions = kept(list);
      if (positions !== undefined) out.set(value, positions);
    }
    return out;
  };
  const fields: FieldIndex[] = [];
  for (const field of full.fields) {
    const text = field.text?.project(positionsOf);
    const projected: FieldIndex = {
      path: field.path,
      caseless: field.caseless,
      key: field.key,
      strings: mapValues(field.strings),
      numbers: mapValues(field.numbers),
      trueRules: kept(field.trueRules),
      falseRules: kept(field.falseRules),
      textKeys: new Map(),
      text,
      hasText: text !== undefined,
    };
    const empty =
      projected.strings.size === 0 &&
      projected.numbers.size === 0 &&
      projected.trueRules === undefined &&
      projected.falseRules === undefined &&
      text === undefined;
    if (!empty) fields.push(projected);
  }
  return { fields, root: pathTree(fields) };
}

/** The fields' paths as a tree (KeyTable.root). */
function pathTree(fields: readonly FieldIndex[]): PathNode {
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
  return root;
}

function addPosition(field: FieldIndex, key: Key, position: number): void {
  const value = key.value;
  let list: number[] | undefined;
  if (key.kind !== 'equals') {
    const text = value as string;
    field.hasText = true;
    const id = `${key.kind}\u0000${text}`;
    let textKey = field.textKeys.get(id);
    if (textKey === undefined) field.textKeys.set(id, (textKey = { kind: key.kind, text, positions: [] }));
    list = textKey.positions as number[];
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
