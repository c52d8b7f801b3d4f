import type { JsonObject, TaskRecord } from './task-function.ts';

/** Reading and writing event values the way PDL does (pdl.md, "Lexical rules", "Typing"). */

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets an own property, also for the key `__proto__` (which plain assignment would not create). */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** A deep copy of a JSON value. */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as JsonObject)[key]));
  return out;
}

/** `"443"`, `"-1.5"` are canonical numerals; `"0443"`, `"443.0"`, `" 443"`, `"1e3"` are not. */
export function isCanonicalNumeral(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > 24) return false;
  const c = text.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 45)) return false;
  if (text.includes('e')) return false;
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text;
}

/** Parsed text: canonical numerals become numbers (pdl.md, "parse_kv and parse_csv", "rex"). */
export function fromText(text: string): string | number {
  return isCanonicalNumeral(text) ? Number(text) : text;
}

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
  return isObject(parsed) ? parsed : `the record is JSON ${Array.isArray(parsed) ? 'array' : typeof parsed === 'object' ? 'null' : typeof parsed}, not an object; this task needs an event`;
}

/** A field's value as text: strings as they are, other values as JSON (OUTPUT_FIELD, EXTRACT). */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
