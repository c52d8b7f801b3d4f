import { anyString, anyValue, edgeNumbers, plainString } from './mutations.ts';
import type { Rng } from './rng.ts';

/** The part of JSON Schema the routes' schemas use (OpenAPI 3.0 flavour, as GET /api/openapi.json serves it). */
export interface Schema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  readonly if?: Schema;
  readonly then?: Schema;
  readonly not?: Schema;
  readonly maxProperties?: number;
}

/** A string meant to match the schema's length bounds (and, for the usual id patterns, its pattern). */
function stringFor(rng: Rng, s: Schema): string {
  if (s.format === 'date-time')
    return rng.pick([new Date(rng.int(0, 2e12)).toISOString(), '2026-11-23T10:00:00Z', 'yesterday']);
  if (s.format === 'email') return `${plainString(rng, 1, 8)}@example.com`;
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 24, min + 24);
  if (s.pattern !== undefined && rng.chance(0.8)) {
    // The routes' patterns are id-like; a plain string usually matches, and when not the request is a valid-looking 400.
    let text = plainString(rng, Math.max(1, min), Math.max(1, max));
    if (/\^\[a-z/.test(s.pattern)) text = text.toLowerCase().replace(/^[^a-z]/, 'a');
    return text;
  }
  if (rng.chance(0.15)) return anyString(rng);
  return plainString(rng, min, Math.max(min, max));
}

function numberFor(rng: Rng, s: Schema, integer: boolean): number {
  const min = s.minimum ?? (integer ? -1000 : -1e6);
  const max = s.maximum ?? (integer ? 1_000_000 : 1e6);
  const r = rng.next();
  if (r < 0.15) return min;
  if (r < 0.3) return max;
  if (r < 0.4) return rng.pick(edgeNumbers);
  const v = min + rng.next() * Math.min(max - min, 1e9);
  return integer ? Math.floor(v) : v;
}

function matchesIf(value: unknown, cond: Schema): boolean {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  for (const key of cond.required ?? []) if (!(key in record)) return false;
  for (const [key, sub] of Object.entries(cond.properties ?? {})) {
    if (!(key in record)) continue;
    if (sub.enum && !sub.enum.includes(record[key])) return false;
    if ('const' in sub && sub.const !== record[key]) return false;
  }
  return true;
}

/**
 * A value generated from a schema: valid in most places (so that requests reach the handler's own
 * checks and sometimes succeed), with an odd value now and then (an out-of-range number, a nasty string).
 */
export function valueFor(rng: Rng, schema: Schema | undefined, depth = 0): unknown {
  if (schema === undefined || depth > 8) return anyValue(rng, 2);
  if ('const' in schema) return schema.const;
  if (schema.enum) return rng.chance(0.97) ? rng.pick(schema.enum) : anyString(rng);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && choices.length > 0) return valueFor(rng, rng.pick(choices), depth + 1);
  let type = Array.isArray(schema.type) ? rng.pick(schema.type as string[]) : (schema.type as string | undefined);
  if (type === undefined) type = schema.properties ? 'object' : schema.items ? 'array' : undefined;
  switch (type) {
    case 'string':
      return stringFor(rng, schema);
    case 'integer':
      return numberFor(rng, schema, true);
    case 'number':
      return numberFor(rng, schema, false);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 4, min + 4);
      return Array.from({ length: rng.int(min, max) }, () => valueFor(rng, schema.items, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.6)) out[key] = valueFor(rng, sub, depth + 1);
      }
      for (const part of schema.allOf ?? []) {
        if (part.if && part.then) {
          if (matchesIf(out, part.if))
            for (const [key, sub] of Object.entries(part.then.properties ?? {}))
              out[key] = valueFor(rng, sub, depth + 1);
        } else {
          for (const [key, sub] of Object.entries(part.properties ?? {}))
            if ((part.required ?? []).includes(key) || rng.chance(0.6)) out[key] = valueFor(rng, sub, depth + 1);
        }
      }
      if (schema.additionalProperties !== false && schema.properties === undefined && rng.chance(0.5)) {
        for (let i = rng.int(0, 3); i > 0; i--)
          out[plainString(rng)] = valueFor(
            rng,
            typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined,
            depth + 1,
          );
      }
      return out;
    }
    default:
      return anyValue(rng, 2);
  }
}
