// Shared test helpers (no tests here).
import assert from 'node:assert/strict';
import { compile, isPdlSyntaxError, parse } from '../src/index.ts';
import type { JsonObject } from '../src/index.ts';

/** A deep copy of an AST without `span` keys, for comparisons "modulo spans". */
export function stripSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSpans);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== 'span') out[key] = stripSpans(v);
  return out;
}

/** Runs PDL on one event (single-output use). */
export function run(pdl: string, event: JsonObject): JsonObject | null {
  return compile(pdl).run(event);
}

/** Whether the query keeps the event. */
export function holds(query: string, event: JsonObject): boolean {
  return compile(query).run(event) !== null;
}

/** Asserts the exact syntax error of a text. */
export function assertSyntaxError(text: string, message: string, line: number, column: number): void {
  try {
    parse(text);
  } catch (error) {
    assert.ok(isPdlSyntaxError(error), `not a PdlSyntaxError: ${String(error)}`);
    assert.equal(error.message, message);
    assert.equal(error.line, line);
    assert.equal(error.column, column);
    return;
  }
  assert.fail(`no error for ${text}`);
}
