import { compile, compileUserRegex, isPdlSyntaxError, UserRegexError } from '@weir/pdl';
import { Buffer } from 'node:buffer';
import { childPath, fail } from './errors.ts';
import type { Mapping } from './mapping.ts';
import { spacedSpelling } from './mapping.ts';
import { and, not, or, pdlField, pdlRegex, pdlString } from './pdlText.ts';
import type { Piece } from './sigmaString.ts';
import { hasOne, literal, parseSigmaString, piecesToRegex, plainText, STAR } from './sigmaString.ts';

/** What a detection is converted against: the mapping, and the fields of the rule's log source. */
export interface DetectionContext {
  readonly mapping: Mapping;
  /** Sigma field → path, the log source's overrides applied. */
  readonly fields: Readonly<Record<string, string>>;
}

/** The event path of a Sigma field (its spelling as written; see fieldPaths for the spaced one). */
export function fieldPath(ctx: DetectionContext, field: string): string {
  return ctx.fields[field] ?? ctx.mapping.fields[field] ?? ctx.mapping.fieldTemplate.replace('{field}', field);
}

/**
 * The event paths of a Sigma field: its path, then, for a field placed by fieldTemplate that the
 * mapping's spacedFields writes with spaces (`ThreatName`), the path of that spelling
 * (`Event.EventData.Threat Name`).
 */
export function fieldPaths(ctx: DetectionContext, field: string): string[] {
  const path = fieldPath(ctx, field);
  if (ctx.fields[field] !== undefined || ctx.mapping.fields[field] !== undefined) return [path];
  const spaced = spacedSpelling(ctx.mapping, field);
  return spaced === undefined ? [path] : [path, ctx.mapping.fieldTemplate.replace('{field}', spaced)];
}

/**
 * One item's queries, one per spelling of its field, as one query that means the item on the
 * spelling the event has (an event writes a field one way): an OR when the item is false on a
 * missing field (`=`, `?=`, `~=`, ...), an AND when it holds on one (`!=`, `= null`), as PDL's own
 * evaluation of the first query on an empty event tells.
 */
function eitherSpelling(queries: readonly string[], path: string): string {
  if (queries.length === 1) return queries[0] as string;
  let holdsOnMissing: boolean;
  try {
    holdsOnMissing = compile(queries[0] as string).run({}) !== null;
  } catch (error) {
    if (isPdlSyntaxError(error))
      return fail(path, `the generated PDL does not compile (${error.message}); please report this rule`);
    throw error;
  }
  return holdsOnMissing ? and(queries) : or(queries);
}

export const KNOWN_MODIFIERS: ReadonlySet<string> = new Set([
  'contains',
  'startswith',
  'endswith',
  'all',
  're',
  'i',
  'm',
  's',
  'cidr',
  'base64',
  'base64offset',
  'utf16',
  'utf16le',
  'utf16be',
  'wide',
  'windash',
  'exists',
  'fieldref',
  'lt',
  'lte',
  'gt',
  'gte',
  'neq',
  'expand',
  'cased',
]);
export const TIME_MODIFIERS: ReadonlySet<string> = new Set(['minute', 'hour', 'day', 'week', 'month', 'year']);
const ORDER: Readonly<Record<string, string>> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** One selection (the value under a search identifier) as a PDL query. */
export function convertSelection(value: unknown, path: string, ctx: DetectionContext): string {
  if (Array.isArray(value)) {
    if (value.length === 0) fail(path, 'an empty list matches nothing; give at least one item');
    if (value.every((v) => v === null || typeof v !== 'object')) return keywords(value, [], path, ctx);
    return or(
      value.map((item, i) => {
        const p = childPath(path, i);
        if (item === null || typeof item !== 'object')
          fail(p, 'a list mixing maps and plain values is not a Sigma selection');
        return convertSelection(item, p, ctx);
      }),
    );
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) fail(path, 'an empty map matches nothing; give at least one field');
    return and(entries.map(([key, v]) => convertItem(key, v, childPath(path, key), ctx)));
  }
  if (typeof value === 'string' || typeof value === 'number') return keywords([value], [], path, ctx);
  return fail(path, `a selection must be a map, a list or a keyword; found ${value === null ? 'null' : typeof value}`);
}

/** `Field|mod|mod: value(s)` */
function convertItem(key: string, value: unknown, path: string, ctx: DetectionContext): string {
  const [field = '', ...modifiers] = key.split('|');
  for (const m of modifiers) {
    if (TIME_MODIFIERS.has(m)) fail(path, `the time modifier '${m}' is not supported: PDL has no date-part extraction`);
    if (!KNOWN_MODIFIERS.has(m)) fail(path, `unknown modifier '${m}'`);
  }
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0) fail(path, 'an empty list of values matches nothing');
  if (field === '') return keywords(values, modifiers, path, ctx);
  return eitherSpelling(
    fieldPaths(ctx, field).map((p) => itemQuery(pdlField(p), value, values, modifiers, path, ctx)),
    path,
  );
}

/** The item's query on one path of its field (`target`, as PDL). */
function itemQuery(
  target: string,
  value: unknown,
  values: readonly unknown[],
  modifiers: readonly string[],
  path: string,
  ctx: DetectionContext,
): string {
  const has = (m: string): boolean => modifiers.includes(m);
  const joinAll = has('all');
  const negate = has('neq');

  if (has('exists')) {
    if (values.length !== 1 || typeof values[0] !== 'boolean') fail(path, "'exists' takes true or false");
    return values[0] === true ? `${target} != null` : `${target} = null`;
  }
  if (has('fieldref')) {
    const ops = values.map((v, i) => {
      if (typeof v !== 'string' || v === '') fail(childPath(path, i), "'fieldref' takes a field name");
      if (has('startswith') || has('endswith'))
        fail(
          path,
          "'fieldref' with startswith or endswith is not supported: PDL compares a field with a field by =, ?= and order only",
        );
      const op = has('contains') ? '?=' : negate ? '!=' : '=';
      // the other field by each of its spellings: = and ?= hold on the one the event has, != on both
      const tests = fieldPaths(ctx, v as string).map((other) => `${target} ${op} ${pdlField(other)}`);
      return op === '!=' ? and(tests) : or(tests);
    });
    return joinAll ? and(ops) : or(ops);
  }
  const order = modifiers.find((m) => m in ORDER);
  if (order !== undefined) {
    const ops = values.map((v, i) => {
      const n =
        typeof v === 'number'
          ? v
          : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
            ? Number(v)
            : undefined;
      if (n === undefined) return fail(childPath(path, i), `'${order}' takes a number, found ${JSON.stringify(v)}`);
      return `${target} ${ORDER[order] as string} ${String(n)}`;
    });
    return joinAll ? and(ops) : or(ops);
  }
  if (has('re')) return regexItem(target, values, modifiers, path, negate, joinAll);
  if (has('cidr')) return cidrItem(target, values, path, negate, joinAll);

  // string matching (plain values, contains/startswith/endswith, encodings, windash, expand)
  const caseless = !has('cased');
  const tests: string[] = [];
  values.forEach((v, i) => {
    const p = Array.isArray(value) ? childPath(path, i) : path;
    if (v === null) {
      tests.push(`${target} ${negate ? '!=' : '='} null`);
      return;
    }
    if (typeof v === 'boolean' || (typeof v === 'number' && !hasStringModifier(modifiers))) {
      tests.push(`${target} ${negate ? '!=' : '='} ${String(v)}`);
      return;
    }
    if (typeof v !== 'string' && typeof v !== 'number')
      return fail(p, `a value must be a string, number, boolean or null; found ${typeof v}`);
    const alternatives = stringAlternatives(String(v), modifiers, p, ctx).map((pieces) =>
      comparison(target, pieces, modifiers, caseless),
    );
    tests.push(negate ? and(alternatives.map(not)) : or(alternatives));
  });
  if (joinAll) return and(tests);
  return compactIn(target, tests) ?? (negate ? and(tests) : or(tests));
}

function hasStringModifier(modifiers: readonly string[]): boolean {
  return modifiers.some((m) =>
    [
      'contains',
      'startswith',
      'endswith',
      'base64',
      'base64offset',
      'utf16',
      'utf16le',
      'utf16be',
      'wide',
      'windash',
      'expand',
    ].includes(m),
  );
}

/**
 * A string value's alternatives as Sigma string pieces: placeholders expanded, dashes permuted,
 * encodings applied, then wildcards added for contains / startswith / endswith.
 */
function stringAlternatives(
  text: string,
  modifiers: readonly string[],
  path: string,
  ctx: DetectionContext,
): Piece[][] {
  let texts = [text];
  if (modifiers.includes('expand')) texts = texts.flatMap((t) => expand(t, path, ctx));
  let alternatives = texts.map(parseSigmaString);
  if (modifiers.includes('windash')) alternatives = alternatives.flatMap(windash);
  const encoding = modifiers.find((m) => ['utf16', 'utf16le', 'utf16be', 'wide'].includes(m));
  const base64 = modifiers.includes('base64')
    ? 'base64'
    : modifiers.includes('base64offset')
      ? 'base64offset'
      : undefined;
  if (encoding !== undefined && base64 === undefined) {
    fail(
      path,
      `'${encoding}' without base64 or base64offset is not supported: a JSON event holds text, not UTF-16 bytes`,
    );
  }
  if (base64 !== undefined) {
    alternatives = alternatives.flatMap((pieces) => {
      const plain = plainText(pieces);
      if (plain === undefined) return fail(path, `'${base64}' cannot encode a value with wildcards`);
      const bytes = encode(plain, encoding);
      return base64 === 'base64' ? [literal(bytes.toString('base64'))] : base64Offsets(bytes).map(literal);
    });
  }
  const contains = modifiers.includes('contains') || base64 === 'base64offset';
  const starts = modifiers.includes('startswith');
  const ends = modifiers.includes('endswith');
  if (contains || starts || ends) {
    alternatives = alternatives.map((pieces) => [
      ...(contains || ends ? [STAR] : []),
      ...pieces,
      ...(contains || starts ? [STAR] : []),
    ]);
  }
  return alternatives;
}

function expand(text: string, path: string, ctx: DetectionContext): string[] {
  let results = [''];
  let rest = text;
  for (let m = /%([A-Za-z0-9_]+)%/.exec(rest); m !== null; m = /%([A-Za-z0-9_]+)%/.exec(rest)) {
    const name = m[1] as string;
    const values = ctx.mapping.placeholders[name];
    if (values === undefined)
      fail(
        path,
        `the placeholder %${name}% has no values in the mapping '${ctx.mapping.name}' (add them under placeholders)`,
      );
    const before = rest.slice(0, m.index);
    results = results.flatMap((r) => (values as readonly string[]).map((v) => r + before + v));
    rest = rest.slice(m.index + m[0].length);
  }
  return results.map((r) => r + rest);
}

const DASHES = ['-', '/', '\u2013', '\u2014', '\u2015'];

/** pySigma's windash: each `-` or `/` that starts a word after a non-word character, in all five dash forms. */
function windash(pieces: Piece[]): Piece[][] {
  let results: Piece[][] = [[]];
  for (const piece of pieces) {
    if (typeof piece !== 'string') {
      results = results.map((r) => [...r, piece]);
      continue;
    }
    const parts = piece.split(/(?<!\w)(?=[-/]\w)/u); // split before each dash to permute
    let texts = [''];
    for (const part of parts) {
      if ((part.startsWith('-') || part.startsWith('/')) && /^[-/]\w/u.test(part)) {
        texts = texts.flatMap((t) => DASHES.map((d) => t + d + part.slice(1)));
      } else {
        texts = texts.map((t) => t + part);
      }
      if (texts.length > 3125) return [pieces];
    }
    results = results.flatMap((r) => texts.map((t) => [...r, t]));
  }
  return results;
}

function encode(text: string, encoding: string | undefined): Buffer {
  switch (encoding) {
    case 'utf16le':
    case 'wide':
      return Buffer.from(text, 'utf16le');
    case 'utf16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'utf16':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    default:
      return Buffer.from(text, 'utf8');
  }
}

/** pySigma's base64offset: the value shifted by 0, 1 and 2 bytes, encoded, without the unstable edges. */
function base64Offsets(bytes: Buffer): string[] {
  const starts = [0, 2, 3];
  const ends = [undefined, -3, -2];
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    const encoded = Buffer.concat([Buffer.alloc(i, ' '), bytes]).toString('base64');
    out.push(encoded.slice(starts[i], ends[(bytes.length + i) % 3]));
  }
  return out;
}

/** One comparison for one alternative: `=` (or `?=` for a plain substring), a regex when `?` is used. */
function comparison(target: string, pieces: readonly Piece[], modifiers: readonly string[], caseless: boolean): string {
  if (hasOne(pieces)) return `${target} ~= ${pdlRegex((caseless ? '(?is)' : '(?s)') + piecesToRegex(pieces))}`;
  if (pieces.length === 3 && typeof pieces[1] === 'string' && pieces[0] === STAR && pieces[2] === STAR) {
    return `${target} ?= ${pdlString([pieces[1]], caseless)}`;
  }
  if (pieces.length === 1 && pieces[0] === STAR && !modifiers.includes('cased')) return `${target} = "*"`;
  return `${target} = ${pdlString(
    pieces.map((p) => (typeof p === 'string' ? p : null)),
    caseless,
  )}`;
}

/** `f = a OR f = b ...` (all `=` on one field) as `f IN [a, b, ...]`. */
function compactIn(target: string, tests: readonly string[]): string | undefined {
  if (tests.length < 2) return undefined;
  const prefix = `${target} = `;
  const values: string[] = [];
  for (const t of tests) {
    if (!t.startsWith(prefix)) return undefined;
    const v = t.slice(prefix.length);
    if (!/^i?"([^"\\]|\\.)*"$/.test(v) && !/^-?\d+(\.\d+)?$/.test(v)) return undefined;
    values.push(v);
  }
  return `${target} IN [${values.join(', ')}]`;
}

function regexItem(
  target: string,
  values: readonly unknown[],
  modifiers: readonly string[],
  path: string,
  negate: boolean,
  joinAll: boolean,
): string {
  const flags = ['i', 'm', 's'].filter((f) => modifiers.includes(f)).join('');
  const ops = values.map((v, i) => {
    const p = values.length > 1 ? childPath(path, i) : path;
    if (typeof v !== 'string') return fail(p, `'re' takes a regular expression string, found ${JSON.stringify(v)}`);
    const pattern = (flags === '' ? '' : `(?${flags})`) + v;
    try {
      compileUserRegex(pattern);
    } catch (error) {
      if (error instanceof UserRegexError)
        fail(p, `the regular expression cannot run in Weir (RE2 syntax, linear time): ${error.reason}`);
      throw error;
    }
    return `${target} ${negate ? '!~=' : '~='} ${pdlRegex(pattern)}`;
  });
  const fixed = ops.map((o) => (o.includes(' !~= ') ? not(o.replace(' !~= ', ' ~= ')) : o));
  return joinAll || negate ? and(fixed) : or(fixed);
}

function cidrItem(target: string, values: readonly unknown[], path: string, negate: boolean, joinAll: boolean): string {
  const patterns: string[] = [];
  values.forEach((v, i) => {
    const p = values.length > 1 ? childPath(path, i) : path;
    if (typeof v !== 'string') return fail(p, `'cidr' takes a network such as 10.0.0.0/8, found ${JSON.stringify(v)}`);
    patterns.push(...cidrPatterns(v.trim(), p));
  });
  if (joinAll) fail(path, "'cidr' with 'all' (an address in every network) is not supported");
  const test = patterns.length === 1 ? `${target} = ${patterns[0] as string}` : `${target} IN [${patterns.join(', ')}]`;
  return negate ? not(test) : test;
}

/** An IPv4 network as `=` patterns on the address text (`10.*`); IPv6 by the hex digits of its first group. */
function cidrPatterns(network: string, path: string): string[] {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(network);
  if (m !== null) {
    const octets = m.slice(1, 5).map(Number);
    const bits = Number(m[5]);
    if (octets.some((o) => o > 255) || bits > 32) return fail(path, `'${network}' is not an IPv4 network`);
    const full = Math.floor(bits / 8);
    const rest = bits % 8;
    const head = octets.slice(0, full);
    if (rest === 0) {
      if (full === 4) return [pdlString([head.join('.')], false)];
      if (full === 0) return ['"*"'];
      return [pdlString([`${head.join('.')}.`, null], false)];
    }
    const base = (octets[full] as number) & (0xff << (8 - rest)) & 0xff;
    const out: string[] = [];
    for (let o = base; o < base + (1 << (8 - rest)); o++) {
      const text = [...head, o].join('.');
      out.push(full === 3 ? pdlString([text], false) : pdlString([`${text}.`, null], false));
    }
    return out;
  }
  const v6 = /^([0-9a-fA-F:]+)\/(\d{1,3})$/.exec(network);
  if (v6 !== null) {
    const bits = Number(v6[2]);
    const address = (v6[1] as string).toLowerCase();
    if (bits === 128) return [pdlString([address], true)];
    const first = address.split(':')[0] as string;
    if (bits <= 16 && first.length === 4) {
      // the first group written with all four digits: the leading bits fix its first hex digits
      const digits = Math.floor(bits / 4);
      const restBits = bits % 4;
      const fixed = first.slice(0, digits);
      if (restBits === 0) return [pdlString([fixed, null], true)];
      const next = Number.parseInt(first[digits] as string, 16) & (0xf << (4 - restBits)) & 0xf;
      const out: string[] = [];
      for (let d = next; d < next + (1 << (4 - restBits)); d++)
        out.push(pdlString([fixed + d.toString(16), null], true));
      return out;
    }
    return fail(
      path,
      `the IPv6 network '${network}' is not supported: only /128 and prefixes within the first group (up to /16) convert`,
    );
  }
  return fail(path, `'${network}' is not a network in CIDR notation`);
}

/** Keywords: field-less values, searched (as substrings) in the mapping's keyword fields. */
function keywords(
  values: readonly unknown[],
  modifiers: readonly string[],
  path: string,
  ctx: DetectionContext,
): string {
  const fields = ctx.mapping.keywordFields;
  if (fields.length === 0)
    fail(path, `keywords (values without a field) need keywordFields in the mapping '${ctx.mapping.name}'`);
  for (const m of modifiers) {
    if (
      ![
        'all',
        'cased',
        'contains',
        'windash',
        'base64',
        'base64offset',
        'utf16le',
        'utf16be',
        'utf16',
        'wide',
      ].includes(m)
    ) {
      fail(path, `the modifier '${m}' cannot apply to keywords`);
    }
  }
  const caseless = !modifiers.includes('cased');
  const tests = values.map((v, i) => {
    const p = values.length > 1 ? childPath(path, i) : path;
    if (typeof v !== 'string' && typeof v !== 'number')
      return fail(p, `a keyword must be a string or a number, found ${v === null ? 'null' : typeof v}`);
    const alternatives = stringAlternatives(
      String(v),
      [...modifiers, 'contains'].filter((m) => m !== 'all'),
      p,
      ctx,
    );
    return or(
      fields.flatMap((f) => alternatives.map((pieces) => comparison(pdlField(f), pieces, modifiers, caseless))),
    );
  });
  return modifiers.includes('all') ? and(tests) : or(tests);
}
