import type { FieldRef } from './ast.ts';

const SEP = '\u0000';
const BARE = /^[A-Za-z_][A-Za-z0-9_:-]*$/;

/** Every field path of the sample events (objects are entered, arrays are values), with each parent. */
export class SampledFields {
  readonly events: number;
  readonly #paths = new Set<string>();
  readonly #shown = new Map<string, string>();

  constructor(events: readonly unknown[]) {
    let n = 0;
    for (const event of events) {
      if (event === null || typeof event !== 'object' || Array.isArray(event)) continue;
      n++;
      this.#add(event as Record<string, unknown>, []);
    }
    this.events = n;
  }

  #add(object: Record<string, unknown>, prefix: readonly string[]): void {
    for (const [key, value] of Object.entries(object)) {
      const path = [...prefix, key];
      const id = path.join(SEP);
      if (!this.#paths.has(id)) {
        this.#paths.add(id);
        this.#shown.set(id, path.every((s) => BARE.test(s)) ? path.join('.') : '');
      }
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        this.#add(value as Record<string, unknown>, path);
    }
  }

  has(path: readonly string[]): boolean {
    return this.#paths.has(path.join(SEP));
  }

  /** The seen paths that PDL can write without backquotes, as written (`a.b`). */
  *writable(): Iterable<string> {
    for (const shown of this.#shown.values()) if (shown !== '') yield shown;
  }
}

/** Paths made by earlier stages: the path itself, its parents and its children count as present. */
export class ProducedFields {
  readonly #paths = new Set<string>();

  add(path: readonly string[]): void {
    this.#paths.add(path.join(SEP));
  }

  has(path: readonly string[]): boolean {
    for (let i = 1; i <= path.length; i++) if (this.#paths.has(path.slice(0, i).join(SEP))) return true;
    const id = path.join(SEP) + SEP;
    for (const p of this.#paths) if (p.startsWith(id)) return true;
    return false;
  }
}

export const fieldText = (field: FieldRef): string => field.path.join('.');
