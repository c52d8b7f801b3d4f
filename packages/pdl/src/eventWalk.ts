import { lowerCase } from './query.ts';
import type { Affix, AffixIndex, ContainsGroup, FieldIndex, KeyTable, PathNode } from './keyTable.ts';
import { HEAD_LENGTH, headHash } from './keyTable.ts';
import { isCanonicalNumeral } from './values.ts';
import type { JsonObject } from './values.ts';

/**
 * The event walk of RuleIndex: an event's fields against a key table (keyTable.ts), collecting
 * the positions of the keys the event meets. Allocation-free: positions go into a given array,
 * and `marks[position] === epoch` says a position was already collected for this event.
 */

type Positions = readonly number[];

/**
 * Appends to `into`, from `count` on, the positions of the table whose keys the event meets
 * (each once: those marked with `epoch` are skipped, the others marked); returns the new count.
 */
export function walkEvent(
  table: KeyTable,
  event: JsonObject,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  return visit(table.root, event, into, count, marks, epoch);
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
