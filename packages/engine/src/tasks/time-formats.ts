import { compileJavaPattern } from './java-time-pattern.ts';
import { compileStrftimePattern } from './strftime-pattern.ts';
import type { TimeParser } from './time-pattern.ts';
import { captures, regexTimeParser } from './time-pattern.ts';

/**
 * The TIMESTAMP formats (tasks.md): `epoch` (seconds, may be fractional), `epoch_millis`,
 * `iso8601`, a strftime pattern when the format contains `%`, otherwise a Java
 * DateTimeFormatter pattern.
 */

/** A field value to epoch milliseconds (an integer), or NaN when it is not a time in this format. */
export type TimeValueParser = (value: unknown, nowMs: number) => number;

const numeral = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function asNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && numeral.test(value)) return Number(value);
  return NaN;
}

const epochSeconds: TimeValueParser = (value) => {
  const n = asNumber(value);
  return Number.isFinite(n) ? Math.round(n * 1000) : NaN;
};

const epochMillis: TimeValueParser = (value) => {
  const n = asNumber(value);
  return Number.isFinite(n) ? Math.round(n) : NaN;
};

/** ISO 8601 extended format: date, optional `T` or space and time, optional `Z` or offset (UTC when absent). */
const iso8601Text = regexTimeParser(
  '([+-]?\\d{4,6})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?\\s*(Z|[+-]\\d{2}(?::?\\d{2})?)?)?',
  [
    captures.year,
    captures.month,
    captures.day,
    captures.hour,
    captures.minute,
    captures.second,
    captures.fraction,
    captures.offset,
  ],
);

function textual(parser: TimeParser): TimeValueParser {
  return (value, nowMs) => {
    if (typeof value === 'string') return parser(value.trim(), nowMs);
    if (typeof value === 'number' && Number.isFinite(value)) return parser(String(value), nowMs);
    return NaN;
  };
}

const named: Readonly<Record<string, TimeValueParser>> = {
  epoch: epochSeconds,
  epoch_millis: epochMillis,
  iso8601: textual(iso8601Text),
};

const cache = new Map<string, TimeValueParser>();

/**
 * Compiles a format once per process (tasks sharing a format share the parser). Throws Error with
 * the reason when the pattern is invalid.
 */
export function compileTimeFormat(format: string): TimeValueParser {
  let parser = cache.get(format);
  if (parser === undefined) {
    parser =
      named[format.toLowerCase()] ??
      textual(format.includes('%') ? compileStrftimePattern(format) : compileJavaPattern(format));
    if (cache.size < 1000) cache.set(format, parser);
  }
  return parser;
}
