import { multipartBody } from '@weir/test-helpers/multipart';
import type { FuzzRequest } from './fuzz-client.ts';
import { lookupFile } from './lookup-files.ts';
import {
  anyString,
  anyValue,
  hugeString,
  malformedJson,
  mutateValue,
  nastyStrings,
  oddContentTypes,
  plainString,
  prototypeKeys,
} from './mutations.ts';
import { pdlText } from './pdl-texts.ts';
import type { Rng } from './rng.ts';
import { valueFor, type Schema } from './schema-values.ts';

/** One operation of GET /api/openapi.json. */
export interface Route {
  readonly method: string;
  /** The path template, e.g. /api/rules/{id}. */
  readonly template: string;
  readonly params: readonly { readonly name: string; readonly in: string; readonly schema?: Schema }[];
  readonly body?: Schema;
  readonly roles: readonly string[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-weir-roles'?: string[];
}

/** Every operation of the OpenAPI document (the docs' own asset routes left out: they serve files). */
export function routesOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  const out: Route[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      out.push({
        method: method.toUpperCase(),
        template,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        roles: op['x-weir-roles'] ?? [],
      });
    }
  }
  return out;
}

export const routeName = (r: Route) => `${r.method} ${r.template}`;

/** The tokens a request may carry: resolved by the runner (an admin's, a user's, a refresh token, junk, none). */
export type TokenKind = 'admin' | 'user' | 'refresh' | 'garbage' | 'forged' | 'none';

/** Known ids per collection (the segment before the path parameter), so that some requests reach stored records. */
export type KnownIds = Readonly<Record<string, readonly string[]>>;

export interface RouteInput extends Omit<FuzzRequest, 'headers'> {
  readonly token: TokenKind;
  readonly headers: Readonly<Record<string, string>>;
}

const sigmaSeed = `title: Rar use
id: 6f3e2987-db24-4c78-a860-b4f4095a7095
status: test
logsource: {category: process_creation, product: windows}
detection:
  selection:
    Image|endswith: '\\\\rar.exe'
    CommandLine|contains|all: [' a ', '-hp']
  condition: selection
level: high
`;

/** Percent-encoding of any string (a lone surrogate becomes U+FFFD; the raw forms list sends '%ED%A0%80'). */
const enc = (s: string) => encodeURIComponent(s.toWellFormed());

function uuidOf(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function sigmaYaml(rng: Rng): string {
  let text = sigmaSeed.replace(
    '6f3e2987-db24-4c78-a860-b4f4095a7095',
    rng.chance(0.5) ? uuidOf(rng) : '6f3e2987-db24-4c78-a860-b4f4095a7095',
  );
  const r = rng.int(0, 9);
  if (r === 0)
    return 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n';
  if (r === 1) return `${text}---\n`.repeat(rng.pick([2, 50, 500]));
  if (r === 2) return text.replace("'\\\\rar.exe'", JSON.stringify(rng.pick(nastyStrings)));
  if (r === 3)
    return text.replace(
      'condition: selection',
      `condition: ${rng.pick(['selection and not', '1 of them', 'all of sel*', '(((selection', 'selection | count() > 5', anyString(rng)])}`,
    );
  if (r === 4) return `${'- '.repeat(rng.pick([10, 1000]))}x\n`;
  if (r === 5)
    return text.replace(
      '|endswith',
      rng.pick(['|re', '|base64offset|contains', '|cidr', '|wide|base64', '|unknown', '|re|i']),
    );
  if (r === 6) return `!!js/function "function(){}"\n${text}`;
  for (let i = rng.int(1, 3); i > 0; i--) {
    const at = rng.int(0, text.length);
    text =
      text.slice(0, at) +
      rng.pick([':', '\n', '  ', '\t', '- ', '"', "'", '{', '[', '&a', '*a', '!!', '%', '\u0000', anyString(rng)]) +
      text.slice(at + rng.int(0, 3));
  }
  return text;
}

function encodePathValue(rng: Rng, v: string): string {
  return rng.chance(0.9)
    ? enc(v)
    : rng.pick(['%', '%zz', '%00', '%2e%2e', '..', '.', 'a%2Fb', '%C0%AF', '%ED%A0%80', '%FF', 'a/b', '']);
}

function pathValue(rng: Rng, route: Route, name: string, known: KnownIds): string {
  const segments = route.template.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
  const ids = known[collection] ?? [];
  const r = rng.next();
  if (r < 0.5 && ids.length > 0) return enc(rng.pick(ids));
  if (r < 0.65) return String(rng.pick([0, 1, 2, -1, 2 ** 53, 1e21, 1e20, 1.5]));
  if (r < 0.75) return enc(plainString(rng));
  if (r < 0.8) return enc(hugeString(rng).slice(0, rng.pick([300, 4000])));
  return encodePathValue(rng, anyString(rng));
}

function queryValue(rng: Rng, schema: Schema | undefined): string {
  const r = rng.next();
  if (r < 0.5) {
    const v = valueFor(rng, schema);
    return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
  }
  if (r < 0.8)
    return rng.pick([
      '',
      '-1',
      '0',
      '1e3',
      '99999999999',
      'true',
      'null',
      '2026-13-45T99:99:99Z',
      '1700000000000',
      'now',
      ' ',
    ]);
  return anyString(rng);
}

/** A query string: the route's own parameters (valid-ish or odd), sometimes repeated, unknown or prototype keys. */
function queryString(rng: Rng, route: Route): string {
  const pairs: [string, string][] = [];
  for (const p of route.params.filter((x) => x.in === 'query'))
    if (rng.chance(0.5)) pairs.push([p.name, queryValue(rng, p.schema)]);
  if (rng.chance(0.3)) pairs.push([rng.chance(0.3) ? rng.pick(prototypeKeys) : plainString(rng), anyString(rng)]);
  if (rng.chance(0.1) && pairs.length > 0) pairs.push([pairs[0]![0], queryValue(rng, undefined)]);
  if (rng.chance(0.05)) pairs.push(['__proto__[polluted]', '1'], ['constructor[prototype][polluted]', '1']);
  if (pairs.length === 0) return '';
  const text = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  return `?${rng.chance(0.05) ? text.replace(/=/, '=%zz') : text}`;
}

/** A JSON body of a route: from its schema (valid-ish), mutated, or a special body the handler reads itself. */
function jsonBody(rng: Rng, route: Route): unknown {
  if (route.template === '/api/test/pdl' || route.template === '/api/test/pdl/syntax') {
    const event = JSON.stringify(rng.chance(0.3) ? [anyValue(rng, 3), { user: 'bob', port: 443 }] : anyValue(rng, 3));
    return { pdl: pdlText(rng), data: rng.chance(0.9) ? event : anyValue(rng, 1) };
  }
  if (route.template === '/api/import/sigma') {
    return {
      yaml: sigmaYaml(rng),
      mapping: rng.pick(['evtx-json', 'sigma', 'winlogbeat', 'padas', 'none', anyString(rng)]),
      dryRun: rng.chance(0.7),
      ...(rng.chance(0.1) ? { license: anyString(rng) } : {}),
    };
  }
  if (route.template.startsWith('/api/test/'))
    return rng.chance(0.5) ? { user: 'bob', port: 443, message: anyString(rng) } : anyValue(rng, 3);
  if (route.body) return valueFor(rng, route.body);
  return anyValue(rng, 2);
}

/** Routes whose handlers take text (the test endpoints, the Sigma import) or no body at all. */
const takesText = (route: Route) => route.template.startsWith('/api/test/') || route.template === '/api/import/sigma';
const takesBody = (route: Route) =>
  route.body !== undefined || takesText(route) || route.template.startsWith('/api/lookups');

function lookupBody(rng: Rng, route: Route, known: KnownIds): { body: Buffer; contentType: string; label: string } {
  const file = lookupFile(rng);
  const id = rng.chance(0.6)
    ? `fuzz-${plainString(rng, 1, 6)}`
    : rng.chance(0.5)
      ? rng.pick(known.lookups?.length ? known.lookups : ['x'])
      : anyString(rng);
  const r = rng.next();
  const parts = [
    { name: 'id', value: id },
    { name: 'file', value: file.data, filename: file.filename, contentType: file.mimetype || undefined },
  ];
  if (r < 0.6)
    return { ...multipartBody(route.template.endsWith('{id}') ? parts.slice(1) : parts), label: 'lookup-file' };
  if (r < 0.7)
    return {
      ...multipartBody(
        rng.pick([
          [parts[0]!],
          [parts[1]!],
          [],
          [...parts, parts[1]!],
          [{ ...parts[1]!, name: 'other' }],
          [parts[0]!, parts[0]!, parts[1]!],
        ]),
      ),
      label: 'lookup-parts',
    };
  if (r < 0.8) {
    const { body, contentType } = multipartBody(parts);
    return {
      body: rng.chance(0.5) ? body.subarray(0, rng.int(0, body.length)) : body,
      contentType: rng.pick([contentType.replace(/boundary=.*/, 'boundary=other'), 'multipart/form-data', contentType]),
      label: 'lookup-broken-multipart',
    };
  }
  return {
    body: file.data,
    contentType: rng.pick(['text/csv', 'application/json', 'text/plain', 'application/octet-stream']),
    label: 'lookup-not-multipart',
  };
}

/**
 * The i-th input of a route. Mix: schema-generated bodies (valid-ish), mutated bodies, malformed
 * JSON, odd content types, odd path parameters and query strings, and requests without a token or
 * with a bad one. Every input of a route with a path parameter varies it.
 */
export function routeInput(rng: Rng, route: Route, known: KnownIds): RouteInput {
  let path = route.template;
  for (const p of route.params.filter((x) => x.in === 'path'))
    path = path.replace(`{${p.name}}`, pathValue(rng, route, p.name, known));
  const hasQuery = route.params.some((p) => p.in === 'query');
  if (rng.chance(hasQuery ? 0.6 : 0.08)) path += queryString(rng, route);
  const tr = rng.next();
  const token: TokenKind =
    tr < 0.84
      ? 'admin'
      : tr < 0.9
        ? 'user'
        : tr < 0.93
          ? 'none'
          : tr < 0.96
            ? 'garbage'
            : tr < 0.98
              ? 'forged'
              : 'refresh';
  const headers: Record<string, string> = {};
  const base = { method: route.method, token, headers };
  const wantsBody = takesBody(route) || rng.chance(0.25);
  if (!wantsBody) return { ...base, path, label: 'no-body' };
  if (route.template.startsWith('/api/lookups') && route.method === 'POST' && rng.chance(0.85)) {
    const { body, contentType, label } = lookupBody(rng, route, known);
    headers['content-type'] = contentType;
    return { ...base, path, body, label };
  }
  const valid = jsonBody(rng, route);
  const r = rng.next();
  if (r < 0.2) {
    headers['content-type'] = 'application/json';
    return { ...base, path, body: Buffer.from(JSON.stringify(valid) ?? 'null'), label: 'schema' };
  }
  if (r < 0.72) {
    let value = valid;
    let names: string[] = [];
    for (let i = rng.int(1, 3); i > 0; i--) {
      const m = mutateValue(rng, value);
      value = m.value;
      names.push(m.mutation);
    }
    names = [...new Set(names)];
    headers['content-type'] = rng.chance(0.95) ? 'application/json' : 'application/json; charset=utf-8';
    let text = JSON.stringify(value) ?? '';
    // compounded mutations stay under the body limit (16 MiB); a few bodies go over it on purpose
    if (text.length > 4_000_000) text = text.slice(0, 4_000_000);
    if (rng.chance(0.001)) text = `[${'1,'.repeat(9_000_000)}1]`;
    return { ...base, path, body: Buffer.from(text), label: `mutation:${names.join('+')}` };
  }
  if (r < 0.84) {
    headers['content-type'] = 'application/json';
    return {
      ...base,
      path,
      body: Buffer.from(malformedJson(rng, JSON.stringify(valid) ?? '{}')),
      label: 'malformed-json',
    };
  }
  if (r < 0.92 && takesText(route)) {
    headers['content-type'] = 'text/plain';
    const text =
      route.template === '/api/import/sigma'
        ? sigmaYaml(rng)
        : route.template.startsWith('/api/test/pdl')
          ? pdlText(rng)
          : rng.chance(0.5)
            ? JSON.stringify(valid)
            : anyString(rng);
    return { ...base, path, body: Buffer.from(text), label: 'text' };
  }
  const contentType = rng.pick(oddContentTypes);
  if (rng.chance(0.9)) headers['content-type'] = contentType;
  return {
    ...base,
    path,
    body: Buffer.from(rng.chance(0.7) ? (JSON.stringify(valid) ?? '') : anyString(rng)),
    label: 'content-type',
  };
}
