import { lowerCase } from './query.ts';
import type { FieldIndex, KeyTable, PathNode } from './keyTable.ts';
import type { TextSearch } from './textAutomaton.ts';
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
          // the automata lower-case as they read; the exact keys need the lower-cased string
          if (field.hasText) count = addText(field, element, found, count, marks, epoch);
          list = field.strings.size === 0 ? undefined : field.strings.get(lowerCase(element));
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

/** The rules whose prefix, suffix or substring keys the string meets: one pass of each automaton. */
function addText(
  field: FieldIndex,
  text: string,
  into: Int32Array,
  count: number,
  marks: Uint32Array,
  epoch: number,
): number {
  return (field.text as TextSearch).scan(text, into, count, marks, epoch);
}
