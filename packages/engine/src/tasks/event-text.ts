/**
 * An event's JSON text kept from the record it was parsed from, when writing the event again would
 * give that text back byte for byte: the alert records of APPLY_RULES are the event's JSON with
 * `_rule`, `_time` and `_alert` added at its end (stream/process/record-codec.ts's `spliced`), and
 * without this the event is serialised again (`JSON.stringify`) for every record that raises an
 * alert: a second copy of the event as a string per record, the largest single cost after the
 * matching in the SigmaHQ load (bench/RESULTS.md, "SigmaHQ through the engine: the broker's share
 * and the client's Maps").
 *
 * Only APPLY_RULES keeps it (its rules never change the event they read: a rule that transforms
 * works on its own copy), for the event it parsed itself; the text goes with that object. Its
 * alerts share the event's nested values, so when they go on to later tasks of the pipeline (which
 * may change them) the pipeline drops the text (`dropEventTexts`): it is used only when the alerts
 * leave the pipeline as APPLY_RULES raised them.
 */
import { copiedFrom } from '../rules/rule-alert.ts';
import type { JsonObject, TaskRecord } from './task-function.ts';

const texts = new WeakMap<JsonObject, string>();
/** canonicalJson's stack of open containers (1 object, 2 array), reused: it runs synchronously. */
const open: number[] = [];

/**
 * Keeps `text` as `event`'s JSON when `JSON.stringify(event)` is exactly `text` (`event` parsed from
 * it, unchanged), as `canonicalJson` tells; else nothing.
 */
export function keepEventText(event: JsonObject, text: string): void {
  if (canonicalJson(text, event)) texts.set(event, text);
}

/** Forgets the text of the events `records` (alerts) were copied from: they go on to tasks that may change them. */
export function dropEventTexts(records: readonly TaskRecord[]): void {
  for (const record of records) {
    if (typeof record.value === 'string') continue;
    const event = copiedFrom(record.value);
    if (event !== undefined) texts.delete(event);
  }
}

/** The JSON text kept for `event` (keepEventText), if any. */
export function eventText(event: object): string | undefined {
  return texts.get(event as JsonObject);
}

/**
 * True only when `JSON.stringify(parsed)` would give `text` back, `parsed` being `JSON.parse(text)`
 * (the caller parsed it; `text` is valid JSON): no white space, strings escaped as JSON.stringify
 * escapes them (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` only: any `\u` escape, `\/` or lone
 * surrogate answers false), integers of at most 15 digits and no `-0` (any other number answers
 * false), no key made of digits only (JSON.parse puts array-index keys first), and no key twice in
 * one object (the parsed value holds as many keys as the text). False is always safe: the event
 * is then serialised as before.
 */
export function canonicalJson(text: string, parsed: unknown): boolean {
  const n = text.length;
  let keys = 0;
  // containers open at each depth: 1 object, 2 array
  let depth = 0;
  let inObject = false;
  let expectKey = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: as JSON.stringify writes it
      const isKey = expectKey;
      expectKey = false;
      let digitsOnly = true;
      const start = ++i;
      for (;;) {
        if (i >= n) return false;
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d === 0x5c) {
          const e = text.charCodeAt(i + 1);
          // \" \\ \b \f \n \r \t
          if (e !== 0x22 && e !== 0x5c && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74)
            return false;
          digitsOnly = false;
          i += 2;
          continue;
        }
        if (d < 0x20) return false;
        if (d >= 0xd800 && d <= 0xdfff) {
          // only a high surrogate followed by a low one: JSON.stringify escapes a lone one
          const e = text.charCodeAt(i + 1);
          if (d > 0xdbff || !(e >= 0xdc00 && e <= 0xdfff)) return false;
          digitsOnly = false;
          i += 2;
          continue;
        }
        if (d < 0x30 || d > 0x39) digitsOnly = false;
        i++;
      }
      if (isKey) {
        if (digitsOnly && i > start) return false;
        keys++;
      }
      i++;
      continue;
    }
    if (c === 0x7b) {
      open[depth++] = 1;
      inObject = true;
      expectKey = true;
      i++;
    } else if (c === 0x5b) {
      open[depth++] = 2;
      inObject = false;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      inObject = depth > 0 && open[depth - 1] === 1;
      i++;
    } else if (c === 0x2c) {
      expectKey = inObject;
      i++;
    } else if (c === 0x3a) {
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // an integer of 1 to 15 digits, not -0: its own shortest form, exactly
      const start = c === 0x2d ? i + 1 : i;
      let j = start;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d < 0x30 || d > 0x39) break;
        j++;
      }
      const digits = j - start;
      if (digits === 0 || digits > 15) return false;
      if (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x2e || d === 0x65 || d === 0x45) return false;
      }
      if (c === 0x2d && digits === 1 && text.charCodeAt(start) === 0x30) return false;
      i = j;
    } else if (c === 0x74 || c === 0x6e) {
      i += 4; // true, null
    } else if (c === 0x66) {
      i += 5; // false
    } else {
      return false; // white space
    }
  }
  return keys === keyCount(parsed);
}

/** The keys of every object in a parsed JSON value. */
function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += keyCount(value[i]);
    return count;
  }
  for (const key in value) count += 1 + keyCount((value as JsonObject)[key]);
  return count;
}
