import { ChronoField, DateTimeFormatter, LocalDate, LocalTime, TemporalQueries, ZoneOffset } from '@js-joda/core';
import type { TemporalAccessor } from '@js-joda/core';
import { Locale } from '@js-joda/locale';
import '@js-joda/locale_en-us';
import '@js-joda/timezone';
import type { Capture, TimeParser } from './time-pattern.ts';
import { captures, dayNamePattern, literal, monthNamePattern, regexTimeParser } from './time-pattern.ts';

/**
 * Java `DateTimeFormatter` patterns (the original engine's TIMESTAMP formats, tasks.md). The
 * letters logs use (`y u M L d D H k K h m s S a E Z X x O VV` and `'quoted'`, `[optional]`
 * sections) compile to one regex (time-pattern.ts); any other letter (`z` zone names, week
 * fields, eras…) goes to js-joda's own DateTimeFormatter, which implements the whole language.
 */

interface Piece {
  readonly source: string;
  readonly captures: readonly Capture[];
}

const group = (source: string, capture: Capture): Piece => ({ source: `(${source})`, captures: [capture] });

/** Numeric field of Java width rules: 1 letter = 1+ digits, 2 letters = exactly 2. */
function numeric(count: number, capture: Capture, max = 2): Piece | undefined {
  if (count === 1) return group(`\\d{1,${max}}`, capture);
  if (count === 2) return group('\\d{2}', capture);
  if (count <= max) return group(`\\d{${count}}`, capture);
  return undefined;
}

/** The regex piece for a run of `count` equal pattern letters, or undefined to use js-joda. */
function letterPiece(letter: string, count: number): Piece | undefined {
  switch (letter) {
    case 'y':
    case 'u':
      if (count === 2) return group('\\d{2}', captures.yearOf2000);
      // `yyyy` takes at least four digits and leaves the rest to fixed-width fields after it (yyyyMMdd)
      return group(`[+-]?\\d{${count === 1 ? 1 : count},9}`, captures.year);
    case 'M':
    case 'L':
      if (count <= 2) return numeric(count, captures.month);
      if (count <= 4) return group(monthNamePattern, captures.monthName);
      return undefined;
    case 'd':
      return numeric(count, captures.day);
    case 'D':
      if (count === 1) return group('\\d{1,3}', captures.dayOfYear);
      if (count === 2) return group('\\d{2,3}', captures.dayOfYear);
      if (count === 3) return group('\\d{3}', captures.dayOfYear);
      return undefined;
    case 'H':
      return numeric(count, captures.hour);
    case 'k':
      return numeric(count, captures.clockHourOfDay);
    case 'h':
      return numeric(count, captures.clockHourOfAmPm);
    case 'K':
      return numeric(count, captures.hourOfAmPm);
    case 'm':
      return numeric(count, captures.minute);
    case 's':
      return numeric(count, captures.second);
    case 'S':
      return count <= 9 ? group(`\\d{${count}}`, captures.fraction) : undefined;
    case 'a':
      return count === 1 ? group('[ap]m', captures.amPm) : undefined;
    case 'E':
      return count <= 4 ? group(dayNamePattern, captures.ignored) : undefined;
    case 'Z':
      // Java reads only +HHMM here; `Z` and +HH:MM are accepted too, as logs mix them
      if (count <= 3) return group('Z|[+-]\\d{2}:?\\d{2}', captures.offset);
      if (count === 4) return group('GMT(?:[+-]\\d{1,2}(?::\\d{2}(?::\\d{2})?)?)?', captures.offset);
      return count === 5 ? group('Z|[+-]\\d{2}:\\d{2}(?::\\d{2})?', captures.offset) : undefined;
    case 'X':
    case 'x': {
      const forms = [
        '[+-]\\d{2}(?:\\d{2})?',
        '[+-]\\d{4}',
        '[+-]\\d{2}:\\d{2}',
        '[+-]\\d{4}(?:\\d{2})?',
        '[+-]\\d{2}:\\d{2}(?::\\d{2})?',
      ];
      const form = forms[count - 1];
      if (form === undefined) return undefined;
      return group(letter === 'X' ? `Z|${form}` : form, captures.offset);
    }
    case 'O':
      if (count === 1) return group('GMT(?:[+-]\\d{1,2}(?::\\d{2})?)?', captures.offset);
      return count === 4 ? group('GMT(?:[+-]\\d{2}:\\d{2}(?::\\d{2})?)?', captures.offset) : undefined;
    case 'V':
      return count === 2 ? group('[A-Za-z][A-Za-z0-9~/._+-]*', captures.zone) : undefined;
    default:
      return undefined;
  }
}

const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/** The whole pattern as one regex source, or undefined when a part needs js-joda. Throws for malformed patterns. */
function translate(pattern: string): Piece | undefined {
  let source = '';
  const groups: Capture[] = [];
  let depth = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (isLetter(c)) {
      let end = i + 1;
      while (pattern[end] === c) end++;
      const piece = letterPiece(c, end - i);
      if (piece === undefined) return undefined;
      source += piece.source;
      groups.push(...piece.captures);
      i = end;
    } else if (c === "'") {
      if (pattern[i + 1] === "'") {
        source += "'";
        i += 2;
        continue;
      }
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= pattern.length) throw new Error(`unterminated quote at position ${i + 1}`);
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j++;
      }
      source += literal(text);
      i = j + 1;
    } else if (c === '[') {
      source += '(?:';
      depth++;
      i++;
    } else if (c === ']') {
      if (depth === 0) throw new Error(`']' without '[' at position ${i + 1}`);
      source += ')?';
      depth--;
      i++;
    } else if (c === '{' || c === '}' || c === '#') {
      throw new Error(`'${c}' is reserved at position ${i + 1}`);
    } else {
      source += literal(c);
      i++;
    }
  }
  while (depth-- > 0) source += ')?';
  return { source, captures: groups };
}

/** Resolves what js-joda parsed the same way time-pattern.ts does (missing year → now's year, no zone → UTC). */
function jodaParser(pattern: string): TimeParser {
  const formatter = DateTimeFormatter.ofPattern(pattern).withLocale(Locale.US);
  return (text, nowMs) => {
    let parsed: TemporalAccessor;
    try {
      parsed = formatter.parse(text);
    } catch {
      return NaN;
    }
    try {
      let date = parsed.query(TemporalQueries.localDate());
      if (date === null) {
        const now = LocalDate.ofEpochDay(Math.floor(nowMs / 86_400_000));
        const field = (f: ChronoField, fallback: number): number =>
          parsed.isSupported(f) ? parsed.getLong(f) : fallback;
        if (parsed.isSupported(ChronoField.MONTH_OF_YEAR) || parsed.isSupported(ChronoField.YEAR)) {
          date = LocalDate.of(
            field(ChronoField.YEAR, now.year()),
            field(ChronoField.MONTH_OF_YEAR, 1),
            field(ChronoField.DAY_OF_MONTH, 1),
          );
        } else {
          date = now;
        }
      }
      const time = parsed.query(TemporalQueries.localTime()) ?? LocalTime.MIDNIGHT;
      const zone = parsed.query(TemporalQueries.zone()) ?? ZoneOffset.UTC;
      return date.atTime(time).atZone(zone).toInstant().toEpochMilli();
    } catch {
      return NaN;
    }
  };
}

/** Compiles a Java DateTimeFormatter pattern. Throws Error with the reason when the pattern is invalid. */
export function compileJavaPattern(pattern: string): TimeParser {
  const piece = translate(pattern);
  if (piece !== undefined) return regexTimeParser(piece.source, piece.captures);
  try {
    return jodaParser(pattern);
  } catch (error) {
    throw new Error((error as Error).message.split('\n')[0] ?? 'invalid pattern', { cause: error });
  }
}
