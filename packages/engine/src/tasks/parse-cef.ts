import type { RawOptions } from '@weir/contract';
import { setOwn } from './event-values.ts';
import { finishRaw, rawInput } from './raw-text.ts';
import type { JsonObject, TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';

/** The seven CEF header fields, in order (tasks.md). */
export const cefHeaderFields = [
  'cefVersion',
  'deviceVendor',
  'deviceProduct',
  'deviceVersion',
  'signatureId',
  'name',
  'severity',
] as const;

/** Decodes the CEF escapes `\\` `\|` `\=` `\n` `\r`; any other backslash is kept as written. */
export function decodeCef(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (text.charCodeAt(i) !== 92) continue;
    const next = text[i + 1];
    const decoded =
      next === '\\' || next === '|' || next === '=' ? next : next === 'n' ? '\n' : next === 'r' ? '\r' : undefined;
    if (decoded === undefined) continue;
    out += text.slice(from, i) + decoded;
    from = i + 2;
    i++;
  }
  return out + text.slice(from);
}

function isKeyChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 45 ||
    c === 91 ||
    c === 93
  ); // a-z A-Z 0-9 _ . - [ ]
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Reads CEF text into `event`; returns an error message when the text is not CEF. Extension values
 * run to the space before the next `key=`; an `=` not preceded by a key (`?a=b` in a URL) belongs
 * to the value.
 */
export function parseCefInto(text: string, event: JsonObject): string | undefined {
  const start = text.indexOf('CEF:');
  if (start < 0) return 'not a CEF record: "CEF:" not found';
  const prefix = text.slice(0, start).trim();
  if (prefix !== '') event['syslogHeader'] = prefix;
  // header: seven fields, each ended by an unescaped '|'
  let field = 0;
  let from = start + 4;
  let i = from;
  const n = text.length;
  for (; i < n && field < 7; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      i++;
    } else if (c === 124) {
      setOwn(event, cefHeaderFields[field] as string, decodeCef(text.slice(from, i)));
      field++;
      from = i + 1;
    }
  }
  if (field < 6) return `not a CEF record: the header has ${field + 1} of 7 fields (${cefHeaderFields.join('|')})`;
  if (field === 6) {
    // no '|' after the severity: no extension
    setOwn(event, 'severity', decodeCef(text.slice(from).trim()));
    return undefined;
  }
  // extension: find each key, i.e. an unescaped '=' preceded by key characters that follow a space or the start
  const ext = from;
  let keyStart = -1;
  let keyEnd = -1;
  for (let j = ext; j < n; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) {
      j++;
      continue;
    }
    if (c !== 61) continue; // '='
    let k = j;
    while (k > ext && isKeyChar(text.charCodeAt(k - 1))) k--;
    if (k === j || (k > ext && !isSpace(text.charCodeAt(k - 1)))) continue;
    if (keyStart >= 0) setOwn(event, text.slice(keyStart, keyEnd), decodeCef(text.slice(keyEnd + 1, k).trimEnd()));
    keyStart = k;
    keyEnd = j;
  }
  if (keyStart >= 0) setOwn(event, text.slice(keyStart, keyEnd), decodeCef(text.slice(keyEnd + 1).trimEnd()));
  return undefined;
}

/**
 * PARSE_CEF (tasks.md): text → event with the CEF header fields, every extension key (values are
 * strings, escapes decoded) and the syslog prefix before `CEF:` in `syslogHeader`.
 */
export const parseCef: TaskFactory = (definition) => {
  const d = definition as unknown as RawOptions;
  return {
    run(record) {
      const input = rawInput(record, d, 'PARSE_CEF');
      if (typeof input === 'string') return failure(input);
      const problem = parseCefInto(input.text, input.event);
      if (problem !== undefined) return failure(problem);
      finishRaw(input, d);
      return one({ value: input.event, timestamp: record.timestamp });
    },
  };
};
