import type { FromSchema } from './from-schema.ts';
import { responseShape } from './response-shape.ts';

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const range = {
  type: 'object',
  properties: { line: integer, column: integer, endLine: integer, endColumn: integer },
  required: ['line', 'column', 'endLine', 'endColumn'],
} as const;

/** A lint diagnostic (docs/detection-as-code.md, "Lint": every code). */
const lintDiagnosticShape = {
  type: 'object',
  description:
    'a lint diagnostic: a stable code, a severity, a 1-based position (0: no text position, see path) and maybe a safe fix',
  properties: {
    code: string,
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    message: string,
    line: integer,
    column: integer,
    endLine: integer,
    endColumn: integer,
    path: string,
    document: integer,
    fix: {
      type: 'object',
      properties: {
        title: string,
        edits: {
          type: 'array',
          items: { type: 'object', properties: { range, text: string }, required: ['range', 'text'] },
        },
      },
      required: ['title', 'edits'],
    },
  },
  required: ['code', 'severity', 'message', 'line', 'column'],
} as const;

const lintResultShape = {
  type: 'object',
  properties: {
    errors: integer,
    warnings: integer,
    infos: integer,
    diagnostics: { type: 'array', items: lintDiagnosticShape },
  },
  required: ['errors', 'warnings', 'infos', 'diagnostics'],
} as const;

/** POST /api/lint/pdl, /api/lint/sigma, /api/lint/task: the diagnostics and their counts. */
export const lintResult = responseShape(lintResultShape);
export type LintResult = FromSchema<typeof lintResultShape>;
export type LintDiagnosticBody = FromSchema<typeof lintDiagnosticShape>;

/** POST /api/lint/pdl with `topic`: how many of its most recent records are sampled, by default and at most. */
export const lintSample = { default: 100, max: 1000 } as const;

/** POST /api/lint/pdl: the PDL, and sample events (given, or read from a topic) for the never-seen-field check. */
export const pdlLintBody = {
  type: 'object',
  properties: {
    pdl: string,
    events: { type: 'array', description: 'sample events (JSON objects): a field none of them holds is a warning' },
    topic: {
      type: 'string',
      description:
        'a topic whose most recent records (JSON objects) are the sample events, read outside any consumer group; not with events',
    },
    sample: {
      type: 'integer',
      minimum: 1,
      maximum: lintSample.max,
      description: `with topic: how many of its most recent records are read (default ${lintSample.default})`,
    },
  },
  required: ['pdl'],
} as const;
export type PdlLintRequest = FromSchema<typeof pdlLintBody>;

/** POST /api/lint/task: a task (as POST /api/tasks takes it); an APPLY_RULES task's rule ids are checked. */
export const taskLintBody = {
  type: 'object',
  properties: { function: string, definition: { type: 'object' } },
  required: ['function'],
} as const;

/** POST /api/lint/sigma: the YAML (text/plain or a YAML type), or JSON `{yaml}`. */
export const sigmaLintBody = {
  anyOf: [{ type: 'string' }, { type: 'object', properties: { yaml: string }, required: ['yaml'] }],
} as const;
