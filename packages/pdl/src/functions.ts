import type { UserRegex } from './regex.ts';
import { asNumber } from './values.ts';

/**
 * The eval functions (pdl.md, "eval"). Every function returns null instead of throwing when an
 * argument has the wrong type. `replace` receives its regex precompiled (it must be a literal).
 */
export interface FunctionSpec {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Index of an argument that must be a string literal holding a regular expression. */
  readonly regexArg?: number;
  readonly call: (args: readonly unknown[], now: () => number) => unknown;
}

const DECIMAL = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  const n = asNumber(value);
  return n === undefined ? null : Math.trunc(n);
}

export function toText(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : null;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? null : JSON.stringify(value);
    default:
      return null;
  }
}

export const functions: Readonly<Record<string, FunctionSpec>> = {
  lower: { minArgs: 1, maxArgs: 1, call: ([s]) => str(s)?.toLowerCase() ?? null },
  upper: { minArgs: 1, maxArgs: 1, call: ([s]) => str(s)?.toUpperCase() ?? null },
  trim: { minArgs: 1, maxArgs: 1, call: ([s]) => str(s)?.trim() ?? null },
  len: {
    minArgs: 1,
    maxArgs: 1,
    call: ([v]) => (typeof v === 'string' || Array.isArray(v) ? v.length : null),
  },
  substr: {
    minArgs: 2,
    maxArgs: 3,
    call: ([s, start, length]) => {
      const text = str(s);
      let from = integer(start);
      if (text === null || from === null) return null;
      if (from < 0) from = Math.max(0, text.length + from);
      if (length === undefined) return text.slice(from);
      const count = integer(length);
      return count === null ? null : text.slice(from, from + Math.max(0, count));
    },
  },
  replace: {
    minArgs: 3,
    maxArgs: 3,
    regexArg: 1,
    call: ([s, regex, replacement]) => {
      const text = str(s);
      const repl = str(replacement);
      return text === null || repl === null ? null : (regex as UserRegex).replaceAll(text, repl);
    },
  },
  split: {
    minArgs: 2,
    maxArgs: 2,
    call: ([s, sep]) => {
      const text = str(s);
      const separator = str(sep);
      return text === null || separator === null ? null : text.split(separator);
    },
  },
  coalesce: {
    minArgs: 1,
    maxArgs: Infinity,
    call: (args) => {
      for (const value of args) if (value !== null && value !== undefined) return value;
      return null;
    },
  },
  tonumber: {
    minArgs: 1,
    maxArgs: 1,
    call: ([v]) => {
      if (typeof v === 'number') return Number.isFinite(v) ? v : null;
      if (typeof v !== 'string' || !DECIMAL.test(v)) return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    },
  },
  tostring: { minArgs: 1, maxArgs: 1, call: ([v]) => toText(v) },
  round: {
    minArgs: 1,
    maxArgs: 2,
    call: ([v, d]) => {
      const n = asNumber(v);
      const digits = d === undefined ? 0 : integer(d);
      if (n === undefined || digits === null || digits < -15 || digits > 15) return null;
      const factor = 10 ** digits;
      // Half away from zero: round(2.5) = 3, round(-2.5) = -3.
      const rounded = (Math.sign(n) * Math.round(Math.abs(n) * factor)) / factor;
      return Number.isFinite(rounded) ? rounded + 0 : null;
    },
  },
  now: { minArgs: 0, maxArgs: 0, call: (_args, now) => now() },
};

export function isFunctionName(name: string): boolean {
  return Object.hasOwn(functions, name);
}
