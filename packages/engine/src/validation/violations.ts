import type { ErrorObject } from 'ajv';

/**
 * The one formatter of JSON Schema violations (request bodies, params and query strings checked
 * by the route schemas, and configuration records checked by their resource schema), so every
 * 400 names each field by its path. Three renderings, fixed by the spec's examples and the
 * tests: a request part (`body.messages.1 must have required property 'value'`), a record field
 * (`definition.eval[0].action: must be one of rename, set, remove`) and a value with what was
 * found (`$[1].numberOfPartitions: must be an integer >= 1, found string "3"`, the topic bodies).
 *
 * Bounded: at most `maxListedViolations` distinct texts are listed, then `… and N more`, so a body
 * with 100,000 bad elements costs time linear in its size and gets a short answer.
 */
export const maxListedViolations = 20;

/** `/definition/eval/0/action` → `definition.eval[0].action`. */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** One violation of a configuration record, in the resource validation's words. */
function recordViolation(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const at = fieldPath(e.instancePath) || '(record)';
  switch (e.keyword) {
    case 'required':
      return `${fieldPath(e.instancePath, String(params.missingProperty))}: is required`;
    case 'additionalProperties': {
      const accepted = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `${fieldPath(e.instancePath, String(params.additionalProperty))}: is not an accepted field; accepted: ${accepted.join(', ')}`;
    }
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${at}: must be ${JSON.stringify(params.allowedValue)}`;
    case 'not': {
      const excluded = ((e.parentSchema as { not?: { enum?: unknown[] } } | undefined)?.not?.enum ?? []).map((v) =>
        JSON.stringify(v),
      );
      return `${at}: ${excluded.length ? `must not be ${excluded.join(' or ')}` : 'is not accepted'}`;
    }
    case 'pattern':
      return `${at}: ${JSON.stringify(e.data)} does not match ${String(params.pattern)}`;
    default:
      return `${at}: ${e.message ?? 'is invalid'}`;
  }
}

/** One violation of a request part (`body`, `params`, `querystring`, `headers`), as the API has always worded it. */
function requestViolation(e: ErrorObject, part: string): string {
  const params = e.params as Record<string, unknown>;
  const where = `${part}${e.instancePath.replaceAll('/', '.')}`;
  const extra =
    e.keyword === 'additionalProperties'
      ? ` '${String(params.additionalProperty)}'`
      : e.keyword === 'enum'
        ? `: ${(params.allowedValues as unknown[] | undefined)?.join(', ')}`
        : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}

/** The keywords of a query value's own violations: a wrong type, out of range, not one of the words. */
const valueKeywords = new Set(['type', 'minimum', 'maximum', 'enum']);

/**
 * A query value that is not what its schema declares, saying what was found, as the API has always
 * worded it: `querystring.maxSeconds must be an integer >= 0, found 'soon'`, `querystring.offset
 * must be earliest or latest, found 'middle'`; a schema's `title` is added as a hint (`… >= 0 (the
 * first message to return), found '-1'`). Undefined for any other violation (an unknown parameter).
 */
export function queryValueViolation(e: ErrorObject, part: string): string | undefined {
  if (!valueKeywords.has(e.keyword)) return undefined;
  const schema = (e.parentSchema ?? {}) as {
    type?: unknown;
    minimum?: number;
    maximum?: number;
    enum?: unknown[];
    title?: string;
  };
  let expected: string;
  if (schema.enum !== undefined)
    expected =
      schema.enum.length === 2
        ? `${String(schema.enum[0])} or ${String(schema.enum[1])}`
        : `one of ${schema.enum.join(', ')}`;
  else if (schema.type === 'integer' && e.keyword === 'maximum') expected = `an integer <= ${schema.maximum}`;
  else if (schema.type === 'integer')
    expected = schema.minimum === undefined ? 'an integer' : `an integer >= ${schema.minimum}`;
  else if (schema.type === 'boolean') expected = 'true or false';
  else return undefined;
  const hint = schema.title === undefined ? '' : ` (${schema.title})`;
  return `${part}${e.instancePath.replaceAll('/', '.')} must be ${expected}${hint}, found '${String(e.data)}'`;
}

function listed(errors: readonly ErrorObject[], render: (e: ErrorObject) => string, limit: number): string[] {
  const out = new Set<string>();
  let rest = 0;
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the failing `then` says what is wrong
    if (out.size >= limit) {
      rest++;
      continue;
    }
    out.add(render(e));
  }
  const texts = [...out];
  if (rest > 0) texts.push(`… and ${rest} more`);
  return texts;
}

/** The violations of a configuration record (`name: is required`). */
export function describeViolations(errors: readonly ErrorObject[], limit = maxListedViolations): string[] {
  return listed(errors, recordViolation, limit);
}

/** The violations of a request part checked by a route schema (`body.username must be string`). */
export function describeRequestViolations(
  errors: readonly ErrorObject[],
  part: string,
  limit = maxListedViolations,
): string[] {
  return listed(errors, (e) => requestViolation(e, part), limit);
}

/** A value as a violation names what it found: `string "abc"`, `number 1.5`, `an object`, `null`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** What the value rendering needs to know of a schema beyond its keywords. */
export interface ValuePhrasing {
  /** The fields of an object in the order they are reported (unknown fields come first). */
  readonly fields: readonly string[];
  /** A schema's own text for a violation (a rule the spec words), or undefined for the generic one. */
  explain?(e: ErrorObject): string | undefined;
}

interface SchemaFacts {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly minimum?: number;
  readonly properties?: object;
}

/** `/1/options/retention.ms` → `$[1].options.retention.ms`. */
function valuePath(instancePath: string, child?: string): string {
  const path = fieldPath(instancePath, child);
  return path === '' ? '$' : path.startsWith('[') ? `$${path}` : `$.${path}`;
}

/** What a schema expects, as `must be …` says it: from its type (an object's or array's description says its shape). */
function expected(schema: SchemaFacts): string {
  const type = [schema.type ?? ''].flat()[0];
  if ((type === 'object' || type === 'array') && schema.description !== undefined) return schema.description;
  switch (type) {
    case 'integer':
      return schema.minimum === undefined ? 'an integer' : `an integer >= ${schema.minimum}`;
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    default:
      return `${type === 'object' ? 'an' : 'a'} ${type}`;
  }
}

/** One violation of a value, saying what was found; the field it names (for ordering and one violation per field). */
function valueViolation(e: ErrorObject, phrasing: ValuePhrasing): { field: string; text: string } {
  const params = e.params as Record<string, unknown>;
  const child =
    e.keyword === 'required'
      ? String(params.missingProperty)
      : e.keyword === 'additionalProperties'
        ? String(params.additionalProperty)
        : undefined;
  const field = valuePath(e.instancePath, child);
  const own = phrasing.explain?.(e);
  if (own !== undefined) return { field, text: `${field}: ${own}` };
  const schema = (e.parentSchema ?? {}) as SchemaFacts;
  const integer = [schema.type].flat().includes('integer') ? 'an integer' : 'a number';
  switch (e.keyword) {
    case 'required':
      return { field, text: `${field}: is required` };
    case 'additionalProperties':
      return { field, text: `${field}: unknown field; accepted: ${Object.keys(schema.properties ?? {}).join(', ')}` };
    case 'type':
      return { field, text: `${field}: must be ${expected(schema)}, found ${describeValue(e.data)}` };
    case 'minimum':
      return { field, text: `${field}: must be ${integer} >= ${String(params.limit)}, found ${String(e.data)}` };
    case 'maximum':
      return { field, text: `${field}: must be ${integer} <= ${String(params.limit)}, found ${String(e.data)}` };
    default:
      return { field, text: `${field}: ${e.message ?? 'is invalid'}` };
  }
}

/**
 * The violations of a value (the topic bodies: the spec words them), one per field: an element's
 * unknown fields first, then its fields in `phrasing.fields` order, elements in index order.
 */
export function describeValueViolations(
  errors: readonly ErrorObject[],
  phrasing: ValuePhrasing,
  limit = maxListedViolations,
): string[] {
  const seen = new Set<string>();
  const found: { field: string; text: string; order: number[] }[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const violation = valueViolation(e, phrasing);
    if (seen.has(violation.field)) continue;
    seen.add(violation.field);
    found.push({ ...violation, order: orderOf(e, phrasing.fields) });
  }
  found.sort((a, b) => compareOrder(a.order, b.order));
  const texts = found.slice(0, limit).map((v) => v.text);
  if (found.length > limit) texts.push(`… and ${found.length - limit} more`);
  return texts;
}

/** Element indexes, then -1 for an unknown field or the field's place in `fields`. */
function orderOf(e: ErrorObject, fields: readonly string[]): number[] {
  const parts = e.instancePath.split('/').slice(1);
  const indexes = parts.filter((p) => /^\d+$/.test(p)).map(Number);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return [...indexes, -1];
  const name = e.keyword === 'required' ? String(params.missingProperty) : parts.find((p) => !/^\d+$/.test(p));
  return name === undefined ? indexes : [...indexes, fields.indexOf(name)];
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
