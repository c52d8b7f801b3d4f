import { parse as parseCsv } from 'csv-parse/sync';
import secureJson from 'secure-json-parse';
import { WeirError } from '../core/errors.ts';

/** One row of a lookup (spec: Lookup → content). */
export type LookupRow = Record<string, unknown>;

/** Why an uploaded file is not a lookup table; the message says what was found and what is accepted. */
export class LookupFormatError extends WeirError {
  override name = 'LookupFormatError';
  readonly code = 'LOOKUP_FORMAT';
}

export const lookupFormats = { csv: 'csv', json: 'json' } as const;
export type LookupFormat = (typeof lookupFormats)[keyof typeof lookupFormats];

/**
 * The format of an upload: `.json`/`application/json` → JSON, `.csv`/`text/csv` → CSV, otherwise
 * JSON when the text starts with `[` or `{`, else CSV.
 */
export function lookupFormatOf(text: string, filename = '', mimetype = ''): LookupFormat {
  const lowerName = filename.toLowerCase();
  if (lowerName.endsWith('.json') || /^application\/([\w.+-]*\+)?json\b/i.test(mimetype)) return 'json';
  if (lowerName.endsWith('.csv') || /^text\/csv\b/i.test(mimetype)) return 'csv';
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

/** Parses an uploaded lookup file into rows; throws LookupFormatError. */
export function parseLookupFile(data: Buffer, filename = '', mimetype = ''): LookupRow[] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '')
    throw new LookupFormatError('the file is empty; send CSV (first line: field names) or a JSON array of objects');
  return lookupFormatOf(text, filename, mimetype) === 'json' ? parseJsonRows(text) : parseCsvRows(text);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  return String(value);
}

/** A JSON upload is an array of row objects (spec: Lookups). */
export function parseJsonRows(text: string): LookupRow[] {
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch (err) {
    throw new LookupFormatError(
      `it is not valid JSON (${(err as Error).message}); send a JSON array of objects or CSV`,
    );
  }
  if (!Array.isArray(value)) throw new LookupFormatError(`expected a JSON array of objects, found ${describe(value)}`);
  value.forEach((row, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new LookupFormatError(`expected a JSON array of objects, but element ${index} is ${describe(row)}`);
    }
  });
  return value as LookupRow[];
}

const numeric = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * CSV: the first line gives the field names; quoted cells (RFC 4180, `""` for a quote) are kept as
 * text; an unquoted cell that is a plain decimal number (no leading zeros, no `+`) becomes a number.
 */
export function parseCsvRows(text: string): LookupRow[] {
  let lines: unknown[][];
  try {
    lines = parseCsv(text, {
      bom: true,
      skip_empty_lines: true,
      cast: (value, context) =>
        !context.quoting && numeric.test(value) && Number.isFinite(Number(value)) ? Number(value) : value,
    }) as unknown[][];
  } catch (err) {
    throw new LookupFormatError(`it is not valid CSV: ${(err as Error).message}`);
  }
  const [header, ...rows] = lines;
  if (!header) throw new LookupFormatError('the CSV has no header line; its first line must give the field names');
  const names = header.map((n) => String(n));
  names.forEach((name, i) => {
    if (name.trim() === '') throw new LookupFormatError(`field name ${i + 1} of the header line is empty`);
    if (names.indexOf(name) !== i)
      throw new LookupFormatError(`the field name '${name}' appears more than once in the header line`);
    if (name === '__proto__' || name === 'constructor' || name === 'prototype')
      throw new LookupFormatError(`'${name}' is not allowed as a field name`);
  });
  return rows.map((cells) => Object.fromEntries(names.map((name, i) => [name, cells[i]])));
}
