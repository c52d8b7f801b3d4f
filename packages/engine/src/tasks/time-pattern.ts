import { LocalDateTime, ZoneId, ZoneOffset } from '@js-joda/core';
import '@js-joda/timezone';

/**
 * The shared machinery of Java and strftime time patterns: a pattern compiles to one anchored
 * regular expression whose groups each set one field of a reusable ParseState, then the fields
 * resolve to epoch milliseconds. Regions with daylight-saving rules go through js-joda's tz data;
 * everything else is plain arithmetic, so the common patterns cost one regex match per record.
 */

/** Parses a time value to epoch milliseconds; NaN when it cannot. `nowMs` supplies a missing year or date. */
export type TimeParser = (text: string, nowMs: number) => number;

/** The fields a pattern can set. Unset numbers are NaN. */
export interface ParseState {
  year: number;
  month: number;
  day: number;
  dayOfYear: number;
  hour: number;
  /** 1..12 (h) or 0..11 (K); combined with `pm`. */
  hourOfAmPm: number;
  pm: number;
  minute: number;
  second: number;
  nano: number;
  offsetSeconds: number;
  zone: ZoneId | null;
  epochMs: number;
}

/** Sets a field from its group's text; false when the text is out of range. */
export type Capture = (text: string, state: ParseState) => boolean;

function resetState(s: ParseState): void {
  s.year = NaN;
  s.month = NaN;
  s.day = NaN;
  s.dayOfYear = NaN;
  s.hour = NaN;
  s.hourOfAmPm = NaN;
  s.pm = NaN;
  s.minute = NaN;
  s.second = NaN;
  s.nano = NaN;
  s.offsetSeconds = NaN;
  s.zone = null;
  s.epochMs = NaN;
}

function newState(): ParseState {
  const s = {} as ParseState;
  resetState(s);
  return s;
}

const ranged =
  (min: number, max: number, set: (s: ParseState, n: number) => void): Capture =>
  (text, s) => {
    const n = Number(text); // also reads the padding blank of %e and %k
    if (!(n >= min && n <= max)) return false;
    set(s, n);
    return true;
  };

export const captures = {
  year: ((text, s) => {
    s.year = Number(text);
    return Number.isInteger(s.year);
  }) as Capture,
  /** Two-digit year, Java `yy`: 2000..2099. */
  yearOf2000: ranged(0, 99, (s, n) => (s.year = 2000 + n)),
  /** Two-digit year, POSIX `%y`: 69..99 → 19xx, 00..68 → 20xx. */
  yearPosix: ranged(0, 99, (s, n) => (s.year = n < 69 ? 2000 + n : 1900 + n)),
  month: ranged(1, 12, (s, n) => (s.month = n)),
  monthName: ((text, s) => {
    const m = monthNumbers.get(text.slice(0, 3).toLowerCase());
    if (m === undefined) return false;
    s.month = m;
    return true;
  }) as Capture,
  day: ranged(1, 31, (s, n) => (s.day = n)),
  dayOfYear: ranged(1, 366, (s, n) => (s.dayOfYear = n)),
  hour: ranged(0, 23, (s, n) => (s.hour = n)),
  /** Java `k`: clock hour of day, 1..24 (24 is midnight). */
  clockHourOfDay: ranged(1, 24, (s, n) => (s.hour = n % 24)),
  /** Java `h`, strftime `%I`: 1..12. */
  clockHourOfAmPm: ranged(1, 12, (s, n) => (s.hourOfAmPm = n % 12)),
  /** Java `K`: 0..11. */
  hourOfAmPm: ranged(0, 11, (s, n) => (s.hourOfAmPm = n)),
  amPm: ((text, s) => {
    const c = text.charCodeAt(0) | 0x20;
    s.pm = c === 112 ? 1 : 0; // 'p'
    return true;
  }) as Capture,
  minute: ranged(0, 59, (s, n) => (s.minute = n)),
  second: ranged(0, 59, (s, n) => (s.second = n)),
  /** A fraction of a second: `5` is half a second, `123456` is 123456 µs. */
  fraction: ((text, s) => {
    s.nano = Number(text.length >= 9 ? text.slice(0, 9) : text + '000000000'.slice(text.length));
    return true;
  }) as Capture,
  offset: ((text, s) => {
    s.offsetSeconds = parseOffset(text);
    return !Number.isNaN(s.offsetSeconds);
  }) as Capture,
  zone: ((text, s) => {
    const zone = zoneNamed(text);
    if (zone === null) return false;
    s.zone = zone;
    return true;
  }) as Capture,
  epochSeconds: ((text, s) => {
    s.epochMs = Number(text) * 1000;
    return Number.isFinite(s.epochMs);
  }) as Capture,
  /** Day names and other text the pattern requires but the time does not depend on. */
  ignored: (() => true) as Capture,
} as const;

const monthNames = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const monthNumbers = new Map(monthNames.map((name, i) => [name.slice(0, 3), i + 1]));
/** English month names, short or full (`Sep`, `Sept`, `September`); matched case-insensitively. */
export const monthNamePattern =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
export const dayNamePattern =
  '(?:mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';

/** `Z`, `+02`, `+0200`, `-07:00`, `+05:30:15`, `GMT`, `GMT+8`, `UTC-03:00` → seconds east of UTC; NaN otherwise. */
export function parseOffset(text: string): number {
  let t = text;
  if (t === 'Z' || t === 'z') return 0;
  const fast = fastOffset(t);
  if (!Number.isNaN(fast)) return fast;
  if (/^(?:GMT|UTC|UT)/i.test(t)) {
    t = t.replace(/^(?:GMT|UTC|UT)/i, '');
    if (t === '') return 0;
  }
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(t);
  if (m === null) return NaN;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  const seconds = m[4] === undefined ? 0 : Number(m[4]);
  if (hours > 18 || minutes > 59 || seconds > 59) return NaN;
  const total = hours * 3600 + minutes * 60 + seconds;
  return m[1] === '-' ? -total : total;
}

const digit = (text: string, at: number): number => {
  const d = text.charCodeAt(at) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};

/** The common forms `+HHMM` and `+HH:MM` without a regex. */
function fastOffset(t: string): number {
  const sign = t.charCodeAt(0) === 43 ? 1 : t.charCodeAt(0) === 45 ? -1 : 0;
  if (sign === 0) return NaN;
  const m = t.length === 5 ? 3 : t.length === 6 && t.charCodeAt(3) === 58 ? 4 : -1;
  if (m < 0) return NaN;
  const hours = digit(t, 1) * 10 + digit(t, 2);
  const minutes = digit(t, m) * 10 + digit(t, m + 1);
  if (!(hours <= 18 && minutes <= 59)) return NaN;
  return sign * (hours * 3600 + minutes * 60);
}

const zoneCache = new Map<string, ZoneId | null>();

/** A zone by region id (`Europe/Paris`) or offset-style id (`UTC`, `GMT+2`); null when unknown. Cached. */
export function zoneNamed(name: string): ZoneId | null {
  let zone = zoneCache.get(name);
  if (zone === undefined) {
    const offset = parseOffset(name);
    if (!Number.isNaN(offset)) {
      zone = ZoneOffset.ofTotalSeconds(offset);
    } else {
      try {
        zone = ZoneId.of(name);
      } catch {
        zone = null;
      }
    }
    if (zoneCache.size < 10_000) zoneCache.set(name, zone);
  }
  return zone;
}

/** Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's days_from_civil); any year. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function monthLength(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : (monthLengths[month - 1] as number);
}

const DAY_MS = 86_400_000;

/**
 * The instant of the parsed fields. Missing parts (Java's SMART resolution, plus what logs need):
 * no year → the year of `nowMs` (syslog `MMM dd HH:mm:ss`); no date at all → the date of `nowMs`;
 * no time → midnight; no zone or offset → UTC. A day past the month's end is the month's last day.
 */
function resolve(s: ParseState, nowMs: number): number {
  if (!Number.isNaN(s.epochMs)) return s.epochMs;
  let year = s.year;
  let month = s.month;
  let day = s.day;
  if (Number.isNaN(year) && Number.isNaN(month) && Number.isNaN(day) && Number.isNaN(s.dayOfYear)) {
    const today = new Date(nowMs);
    year = today.getUTCFullYear();
    month = today.getUTCMonth() + 1;
    day = today.getUTCDate();
  }
  if (Number.isNaN(year)) year = new Date(nowMs).getUTCFullYear();
  let days: number;
  if (!Number.isNaN(s.dayOfYear) && Number.isNaN(month)) {
    if (s.dayOfYear > (isLeap(year) ? 366 : 365)) return NaN;
    days = daysFromCivil(year, 1, 1) + s.dayOfYear - 1;
    const date = new Date(days * DAY_MS);
    month = date.getUTCMonth() + 1;
    day = date.getUTCDate();
  } else {
    if (Number.isNaN(month)) month = 1;
    if (Number.isNaN(day)) day = 1;
    const last = monthLength(year, month);
    if (day > last) day = last;
    days = daysFromCivil(year, month, day);
  }
  let hour = Number.isNaN(s.hour) ? 0 : s.hour;
  if (!Number.isNaN(s.hourOfAmPm)) hour = s.hourOfAmPm + (s.pm === 1 ? 12 : 0);
  else if (s.pm === 1 && hour < 12) hour += 12;
  const minute = Number.isNaN(s.minute) ? 0 : s.minute;
  const second = Number.isNaN(s.second) ? 0 : s.second;
  const nano = Number.isNaN(s.nano) ? 0 : s.nano;
  if (!Number.isNaN(s.offsetSeconds)) {
    return (
      days * DAY_MS +
      hour * 3_600_000 +
      minute * 60_000 +
      second * 1000 +
      Math.floor(nano / 1e6) -
      s.offsetSeconds * 1000
    );
  }
  if (s.zone !== null && !(s.zone instanceof ZoneOffset && s.zone.totalSeconds() === 0)) {
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second, nano).atZone(s.zone).toInstant().toEpochMilli();
    } catch {
      return NaN;
    }
  }
  return days * DAY_MS + hour * 3_600_000 + minute * 60_000 + second * 1000 + Math.floor(nano / 1e6);
}

/** A compiled pattern: an anchored, case-insensitive regex and one capture per group, in order. */
export function regexTimeParser(source: string, groups: readonly Capture[]): TimeParser {
  const regex = new RegExp(`^(?:${source})$`, 'i');
  const state = newState();
  const count = groups.length;
  return (text, nowMs) => {
    const m = regex.exec(text);
    if (m === null) return NaN;
    resetState(state);
    for (let i = 0; i < count; i++) {
      const group = m[i + 1];
      if (group !== undefined && !(groups[i] as Capture)(group, state)) return NaN;
    }
    return resolve(state, nowMs);
  };
}

/** Escapes text for a RegExp source. */
export function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
