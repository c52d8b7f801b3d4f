import type { Capture, TimeParser } from './time-pattern.ts';
import { captures, dayNamePattern, literal, monthNamePattern, regexTimeParser } from './time-pattern.ts';

/**
 * strftime/strptime patterns (TIMESTAMP formats containing `%`, tasks.md), as C, Python and
 * Ruby read them. Whitespace in the pattern matches any run of whitespace, also none.
 */

type Directive = readonly [source: string, capture: Capture] | string;

const directives: Readonly<Record<string, Directive>> = {
  Y: ['[+-]?\\d{4}', captures.year],
  y: ['\\d{2}', captures.yearPosix],
  m: ['\\d{1,2}', captures.month],
  d: ['\\d{1,2}', captures.day],
  e: [' ?\\d{1,2}', captures.day],
  j: ['\\d{1,3}', captures.dayOfYear],
  H: ['\\d{1,2}', captures.hour],
  k: [' ?\\d{1,2}', captures.hour],
  I: ['\\d{1,2}', captures.clockHourOfAmPm],
  l: [' ?\\d{1,2}', captures.clockHourOfAmPm],
  M: ['\\d{1,2}', captures.minute],
  S: ['\\d{1,2}', captures.second],
  f: ['\\d{1,9}', captures.fraction],
  L: ['\\d{3}', captures.fraction],
  N: ['\\d{1,9}', captures.fraction],
  p: ['[ap]\\.?m\\.?', captures.amPm],
  P: ['[ap]\\.?m\\.?', captures.amPm],
  z: ['Z|[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?', captures.offset],
  Z: ['[A-Za-z][A-Za-z0-9~/._+-]*', captures.zone],
  b: [monthNamePattern, captures.monthName],
  h: [monthNamePattern, captures.monthName],
  B: [monthNamePattern, captures.monthName],
  a: [dayNamePattern, captures.ignored],
  A: [dayNamePattern, captures.ignored],
  s: ['-?\\d+(?:\\.\\d+)?', captures.epochSeconds],
  T: '%H:%M:%S',
  R: '%H:%M',
  D: '%m/%d/%y',
  F: '%Y-%m-%d',
  r: '%I:%M:%S %p',
  c: '%a %b %e %H:%M:%S %Y',
  x: '%m/%d/%y',
  X: '%H:%M:%S',
};

function translate(pattern: string, out: { source: string; captures: Capture[] }): void {
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '%') {
      let j = i + 1;
      // GNU flags (`%-d`, `%_H`, `%^b`, `%#Z`) change output padding or case only: ignore them when reading
      while (j < pattern.length && '-_0^#'.includes(pattern[j] as string)) j++;
      const name = pattern[j];
      if (name === undefined) throw new Error(`'%' at the end of the pattern`);
      if (name === '%') out.source += '%';
      else if (name === 'n' || name === 't') out.source += '\\s*';
      else {
        const directive = directives[name];
        if (directive === undefined) throw new Error(`unknown directive %${name} at position ${i + 1}`);
        if (typeof directive === 'string') translate(directive, out);
        else {
          out.source += `(${directive[0]})`;
          out.captures.push(directive[1]);
        }
      }
      i = j + 1;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      while (pattern[i + 1] === ' ' || pattern[i + 1] === '\t' || pattern[i + 1] === '\n') i++;
      out.source += '\\s*';
      i++;
    } else {
      out.source += literal(c);
      i++;
    }
  }
}

/** Compiles a strftime pattern. Throws Error with the reason for an unknown directive. */
export function compileStrftimePattern(pattern: string): TimeParser {
  const out = { source: '', captures: [] as Capture[] };
  translate(pattern, out);
  return regexTimeParser(out.source, out.captures);
}
