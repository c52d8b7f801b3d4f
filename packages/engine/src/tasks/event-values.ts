import type { JsonObject, TaskRecord } from './task-function.ts';

/** Reading and writing event values the way PDL does (pdl.md, "Lexical rules", "Typing"). */

// The same value rules as PDL: one implementation, in @weir/pdl.
import { cloneJson, fromText, isCanonicalNumeral, isObject, setOwn } from '@weir/pdl';
export { cloneJson, fromText, isCanonicalNumeral, isObject, setOwn };

/**
 * A field named in a definition. Dots separate nested levels (`winlog.event_data.Image`), as in
 * PDL; a top-level key that itself contains the dots is found first, so flat keys keep working.
 */
export interface FieldPath {
  readonly name: string;
  get(event: JsonObject): unknown;
  /** Sets the value, creating objects on the way; a top-level key with the full name is overwritten in place. */
  set(event: JsonObject, value: unknown): void;
  /** Removes the value and returns it (undefined when absent). */
  take(event: JsonObject): unknown;
}

export function fieldPath(name: string): FieldPath {
  const path = name.split('.');
  if (path.length === 1 || path.includes('')) {
    return {
      name,
      get: (event) => (Object.hasOwn(event, name) ? event[name] : undefined),
      set: (event, value) => setOwn(event, name, value),
      take(event) {
        if (!Object.hasOwn(event, name)) return undefined;
        const value = event[name];
        delete event[name];
        return value;
      },
    };
  }
  const last = path.length - 1;
  const parentOf = (event: JsonObject, create: boolean): JsonObject | undefined => {
    let current = event;
    for (let i = 0; i < last; i++) {
      const key = path[i] as string;
      const next = Object.hasOwn(current, key) ? current[key] : undefined;
      if (isObject(next)) {
        current = next;
      } else if (create) {
        const created: JsonObject = {};
        setOwn(current, key, created);
        current = created;
      } else {
        return undefined;
      }
    }
    return current;
  };
  const leaf = path[last] as string;
  return {
    name,
    get(event) {
      if (Object.hasOwn(event, name)) return event[name];
      const parent = parentOf(event, false);
      return parent !== undefined && Object.hasOwn(parent, leaf) ? parent[leaf] : undefined;
    },
    set(event, value) {
      if (Object.hasOwn(event, name)) event[name] = value;
      else setOwn(parentOf(event, true) as JsonObject, leaf, value);
    },
    take(event) {
      if (Object.hasOwn(event, name)) {
        const value = event[name];
        delete event[name];
        return value;
      }
      const parent = parentOf(event, false);
      if (parent === undefined || !Object.hasOwn(parent, leaf)) return undefined;
      const value = parent[leaf];
      delete parent[leaf];
      return value;
    },
  };
}

/** The event of a record, or the reason it has none (text that is not a JSON object). */
export function eventOf(record: TaskRecord): JsonObject | string {
  const value = record.value;
  if (typeof value !== 'string') return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    return `the record is text that is not JSON (${(error as Error).message}); this task needs an event`;
  }
  return isObject(parsed)
    ? parsed
    : `the record is JSON ${Array.isArray(parsed) ? 'array' : typeof parsed === 'object' ? 'null' : typeof parsed}, not an object; this task needs an event`;
}

/** A field's value as text: strings as they are, other values as JSON (OUTPUT_FIELD, EXTRACT). */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
