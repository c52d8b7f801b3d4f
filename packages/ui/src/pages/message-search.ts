import type { ConsumedMessage } from '@weir/contract';
import { atPath, parsePath, type PathSegment } from '../lib/json-path.ts';
import type { MessagePredicate } from './message-filter.ts';

/**
 * The message browser's searches by JSON path and by header. Both read `<name>`, `<name>=<text>`
 * or `<name>~<text>`: the field (or header) is there; its value, as text, is the text; or contains
 * it. Texts compare in any case. A JSON path reads the message's value when it is JSON (an object,
 * or text holding a JSON object or array).
 */
export type Search =
  { readonly ok: true; readonly test: MessagePredicate | undefined } | { readonly ok: false; readonly message: string };

interface Query {
  readonly name: string;
  readonly op?: '=' | '~';
  readonly text: string;
}

/** `name`, `name=text`, `name~text` (spaces around the operator are allowed). */
function query(input: string): Query {
  const m = /^(.*?)\s*([=~])\s*(.*)$/s.exec(input);
  if (!m) return { name: input.trim(), text: '' };
  return { name: m[1]!.trim(), op: m[2] as '=' | '~', text: m[3]!.trim().toLowerCase() };
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function matches(q: Query, v: unknown): boolean {
  if (!q.op) return true;
  const t = asText(v).toLowerCase();
  return q.op === '=' ? t === q.text : t.includes(q.text);
}

const parsedValues = new WeakMap<ConsumedMessage, unknown>();

/** The message's value as JSON: the object itself, or the JSON a text holds; undefined otherwise. */
export function jsonValue(m: ConsumedMessage): unknown {
  if (parsedValues.has(m)) return parsedValues.get(m);
  const v = m.value;
  let out: unknown;
  if (v !== null && typeof v === 'object') out = v;
  else if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
    try {
      out = JSON.parse(v);
    } catch {
      out = undefined;
    }
  }
  parsedValues.set(m, out);
  return out;
}

/** Messages whose JSON value has the path (with the value or text asked for). */
export function jsonPathSearch(input: string): Search {
  if (!input.trim()) return { ok: true, test: undefined };
  const q = query(input);
  const path = parsePath(q.name);
  if (typeof path === 'string') return { ok: false, message: path };
  const p: readonly PathSegment[] = path;
  return {
    ok: true,
    test: (m) => {
      const at = atPath(jsonValue(m), p);
      return at.found && matches(q, at.value);
    },
  };
}

/** Messages with a header of the name (any case), with the value or text asked for. */
export function headerSearch(input: string): Search {
  if (!input.trim()) return { ok: true, test: undefined };
  const q = query(input);
  if (!q.name) return { ok: false, message: `'${input}' names no header (e.g. source=web)` };
  const name = q.name.toLowerCase();
  return {
    ok: true,
    test: (m) => Object.entries(m.headers ?? {}).some(([k, v]) => k.toLowerCase() === name && matches(q, v)),
  };
}

/**
 * A message as the exports hold it: a key or value that is JSON text (an object or array) as the
 * parsed JSON, other values as they are.
 */
export function exported(m: ConsumedMessage): ConsumedMessage {
  const parse = (v: unknown) => {
    if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  };
  return { ...m, key: parse(m.key), value: parse(m.value) };
}
