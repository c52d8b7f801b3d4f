/** Helpers over JSON event values shared by the compiler stages. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined when any level is missing. Only own properties count. */
export function getPath(event: JsonObject, path: readonly string[]): unknown {
  if (path.length === 1) {
    const key = path[0] as string;
    return typeof event === 'object' && event !== null && !Array.isArray(event) && Object.hasOwn(event, key)
      ? event[key]
      : undefined;
  }
  // Deeper paths read first and test ownership only where an inherited value could be found: on
  // a plain object every inherited property is a function, except `__proto__` (Object.prototype).
  let current: unknown = event;
  for (let i = 0; i < path.length; i++) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    const key = path[i] as string;
    const next = (current as JsonObject)[key];
    if (next === undefined) return undefined;
    if (
      (typeof next === 'function' || key === '__proto__' || Object.getPrototypeOf(current) !== Object.prototype) &&
      !Object.hasOwn(current, key)
    )
      return undefined;
    current = next;
  }
  return current;
}

/** Sets an own property, also for the key `__proto__` (which plain assignment would not create). */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** Sets a value at a path, creating objects as needed; a non-object on the way is replaced. */
export function setPath(event: JsonObject, path: readonly string[], value: unknown): void {
  let current = event;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const key = path[i] as string;
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (isObject(next)) {
      current = next;
    } else {
      const created: JsonObject = {};
      setOwn(current, key, created);
      current = created;
    }
  }
  setOwn(current, path[last] as string, value);
}

/** Deletes the value at a path; parents stay, even when they become empty. */
export function deletePath(event: JsonObject, path: readonly string[]): void {
  let current: unknown = event;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    if (!isObject(current)) return;
    const key = path[i] as string;
    current = Object.hasOwn(current, key) ? current[key] : undefined;
  }
  if (isObject(current)) delete current[path[last] as string];
}

/** A deep copy of a JSON value. */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out;
  }
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as JsonObject)[key]));
  return out;
}

/**
 * A canonical numeral is a string that is exactly how its number prints: `"443"`, `"-1.5"`;
 * not `"0443"`, `"443.0"`, `" 443"`, `"1e3"`, `"Infinity"` (pdl.md, "Typing").
 */
export function isCanonicalNumeral(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > 24) return false;
  const c = text.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 45)) return false;
  if (text.includes('e')) return false;
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text;
}

/** A number, or a canonical numeral read as a number; otherwise undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && isCanonicalNumeral(value)) return Number(value);
  return undefined;
}

/** Converts a captured or parsed text: canonical numerals become numbers. */
export function fromText(text: string): string | number {
  return isCanonicalNumeral(text) ? Number(text) : text;
}

/**
 * A key such that two scalars are `=`-equal (ignoring wildcards) only if their keys are equal:
 * numbers and canonical numerals share `n:<number>`. Objects and arrays have no key. Used to
 * index lookup tables and rules (RuleIndex).
 */
export function valueKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return isCanonicalNumeral(value) ? `n:${value}` : `s:${value}`;
    case 'number':
      return Number.isFinite(value) ? `n:${String(value)}` : undefined;
    case 'boolean':
      return value ? 'b:true' : 'b:false';
    default:
      return value === null ? 'null' : undefined;
  }
}
