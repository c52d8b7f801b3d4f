import type { Rng } from './rng.ts';

/** Strings a careless parser trips over: unicode edge cases, NUL, control characters, injection-ish text. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\t\r\n',
  '\u202e\u202d',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  'e\u0301',
  '\u0130',
  'ß',
  '\u2028\u2029',
  'ﬃ',
  'Ω',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\u00a0',
  '\uffff',
  '\ufffd',
  '..',
  '../../etc/passwd',
  '%00',
  '%zz',
  '%2e%2e%2f',
  '${jndi:ldap://x}',
  "'; DROP TABLE x; --",
  '<script>alert(1)</script>',
  '{{7*7}}',
  '$(id)',
  '`id`',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\\',
  '\\u0000',
  '"',
  "'",
  '*',
  '?',
  '#',
  '/',
  '%',
  ' leading',
  'trailing ',
  'a'.repeat(257),
  '(?<a>(a+)+)+$',
  '((((((((((x',
  '.*.*.*.*.*=.*',
  'ÿ'.repeat(100),
  '\u0085',
  '\u180e',
  '\u200b',
  '\u00ad',
];

/** Numbers at and beyond the limits JSON and JavaScript have. */
export const edgeNumbers: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  5e-324,
  1.7976931348623157e308,
  3.14159,
  1e-7,
  65535,
  65536,
  100000,
  100001,
];

/** Keys that poison prototypes or confuse lookups. */
export const prototypeKeys: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.';

/** A short plain identifier-like string. */
export function plainString(rng: Rng, min = 1, max = 12): string {
  const n = rng.int(min, max);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
}

/** Any string: plain, nasty, random code points (surrogates included), or huge. */
export function anyString(rng: Rng): string {
  const r = rng.next();
  if (r < 0.35) return plainString(rng);
  if (r < 0.65) return rng.pick(nastyStrings);
  if (r < 0.9) {
    let s = '';
    const n = rng.int(1, 40);
    for (let i = 0; i < n; i++) s += String.fromCharCode(rng.chance(0.5) ? rng.int(0, 0x7f) : rng.int(0, 0xffff));
    return s;
  }
  return hugeString(rng);
}

/** A long string (up to ~300 KB): repeated characters, repeated unicode, or repeated nasty text. */
export function hugeString(rng: Rng): string {
  const n = rng.pick([1025, 4097, 16385, 70_000, 300_000]);
  return rng.pick(['x', 'é', '\ud83d\ude00', '\u0000', '\\', '[', '"', 'ab ']).repeat(n).slice(0, n);
}

/** Any JSON value, nesting at most `depth` levels. */
export function anyValue(rng: Rng, depth = 3): unknown {
  const r = rng.next();
  if (r < 0.15) return null;
  if (r < 0.3) return rng.chance(0.5);
  if (r < 0.5) return rng.pick(edgeNumbers) * (rng.chance(0.2) ? -1 : 1);
  if (r < 0.75 || depth <= 0) return anyString(rng);
  if (r < 0.87) return Array.from({ length: rng.int(0, 5) }, () => anyValue(rng, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = rng.int(0, 5); i > 0; i--)
    o[rng.chance(0.2) ? rng.pick(prototypeKeys) : anyString(rng).slice(0, 40)] = anyValue(rng, depth - 1);
  return o;
}

/** A value nested `depth` levels of arrays or objects. */
export function nested(rng: Rng, depth: number): unknown {
  let v: unknown = rng.pick([1, 'x', null]);
  const asArray = rng.chance(0.5);
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** A key path into a JSON value, to mutate one place of it. */
function paths(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  depth = 0,
): (string | number)[][] {
  out.push(prefix);
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) value.slice(0, 20).forEach((v, i) => paths(v, [...prefix, i], out, depth + 1));
  else for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out, depth + 1);
  return out;
}

function replaceAt(root: unknown, path: readonly (string | number)[], make: (old: unknown) => unknown): unknown {
  if (path.length === 0) return make(root);
  const copy: unknown = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  const [head, ...rest] = path;
  (copy as Record<string | number, unknown>)[head!] = replaceAt(
    (root as Record<string | number, unknown>)[head!],
    rest,
    make,
  );
  return copy;
}

/** The kinds of mutation applied to a valid value; each is named in the report of a failure. */
export const mutationNames = [
  'wrong-type',
  'huge-string',
  'deep-nesting',
  'unicode',
  'nul',
  'proto-key',
  'edge-number',
  'drop-field',
  'extra-field',
  'null',
  'long-array',
  'empty',
  'duplicate',
] as const;
export type MutationName = (typeof mutationNames)[number];

/** One mutation of a JSON value at a random place. */
export function mutateValue(rng: Rng, value: unknown): { value: unknown; mutation: MutationName } {
  const mutation = rng.pick(mutationNames);
  const at = rng.pick(paths(value));
  const set = (make: (old: unknown) => unknown) => replaceAt(value, at, make);
  switch (mutation) {
    case 'wrong-type':
      return {
        mutation,
        value: set((old) => {
          const options: unknown[] = [1, -1.5, 'text', true, null, [], {}, [old], { value: old }];
          return rng.pick(options.filter((o) => typeof o !== typeof old || Array.isArray(o) !== Array.isArray(old)));
        }),
      };
    case 'huge-string':
      return { mutation, value: set(() => hugeString(rng)) };
    case 'deep-nesting':
      return { mutation, value: set(() => nested(rng, rng.pick([50, 99, 101, 200, 1000]))) };
    case 'unicode':
      return {
        mutation,
        value: set((old) => (typeof old === 'string' ? old + rng.pick(nastyStrings) : rng.pick(nastyStrings))),
      };
    case 'nul':
      return { mutation, value: set((old) => (typeof old === 'string' ? `${old}\u0000${old}` : '\u0000')) };
    case 'proto-key':
      return {
        mutation,
        value: set((old) => {
          const key = rng.pick(prototypeKeys);
          const inner = rng.chance(0.5) ? { prototype: { polluted: true } } : { polluted: true, isAdmin: true };
          return old !== null && typeof old === 'object' && !Array.isArray(old)
            ? { ...old, [key]: inner }
            : { [key]: inner };
        }),
      };
    case 'edge-number':
      return { mutation, value: set(() => rng.pick(edgeNumbers) * (rng.chance(0.3) ? -1 : 1)) };
    case 'drop-field': {
      const objectPaths = paths(value).filter((p) => p.length > 0 && typeof p[p.length - 1] === 'string');
      if (objectPaths.length === 0) return { mutation, value: undefined };
      const victim = rng.pick(objectPaths);
      return {
        mutation,
        value: replaceAt(value, victim.slice(0, -1), (parent) => {
          const copy = { ...(parent as Record<string, unknown>) };
          delete copy[victim[victim.length - 1] as string];
          return copy;
        }),
      };
    }
    case 'extra-field':
      return {
        mutation,
        value: set((old) =>
          old !== null && typeof old === 'object' && !Array.isArray(old)
            ? { ...old, [anyString(rng).slice(0, 30) || 'extra']: anyValue(rng, 2) }
            : old,
        ),
      };
    case 'null':
      return { mutation, value: set(() => null) };
    case 'long-array':
      return {
        mutation,
        value: set((old) => {
          const small = (JSON.stringify(old) ?? '').length < 200;
          return Array.from({ length: rng.pick([1001, 5000, 50_000]) }, (_, i) => (small && rng.chance(0.5) ? old : i));
        }),
      };
    case 'empty':
      return {
        mutation,
        value: set((old) =>
          typeof old === 'string' ? '' : Array.isArray(old) ? [] : typeof old === 'object' ? {} : 0,
        ),
      };
    case 'duplicate':
      return { mutation, value: set((old) => [old, old]) };
  }
}

/** Raw body texts that are not the JSON they claim to be. */
export function malformedJson(rng: Rng, valid: string): string {
  const cut = rng.int(0, Math.max(0, valid.length - 1));
  return rng.pick([
    () => valid.slice(0, cut),
    () => `${valid.slice(0, cut)}\u0000${valid.slice(cut)}`,
    () => `${valid},`,
    () => `${valid}${valid}`,
    () => valid.replace(/"/g, "'"),
    () => `{"a":1,"a":2,${valid.slice(1)}`,
    () => '{"__proto__":{"isAdmin":true}}',
    () => '{"constructor":{"prototype":{"isAdmin":true}}}',
    () => `${'['.repeat(rng.pick([101, 5000, 100_000]))}${']'.repeat(rng.pick([0, 101]))}`,
    () => `${'{"a":'.repeat(rng.pick([101, 20_000]))}1${'}'.repeat(10)}`,
    () => 'NaN',
    () => 'Infinity',
    () => 'undefined',
    () => '1e999999',
    () => '-',
    () => '"\\ud800"',
    () => '"\\u00"',
    () => '\ufeff' + valid,
    () => valid.replace(/:/, '::'),
    () => ' ',
    () => '',
    () => 'null',
    () => '0',
    () => '"text"',
    () => Buffer.from([0xff, 0xfe, 0xfd, 0x80, 0xc3, 0x28]).toString('latin1'),
  ])();
}

/** Content types a JSON route should refuse or treat as plain text. */
export const oddContentTypes: readonly string[] = [
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json, text/plain',
  '*/*',
  'invalid',
  ';',
  'text/csv',
  'application/merge-patch+json',
];
