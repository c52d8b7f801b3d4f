import type { FromSchema } from './from-schema.ts';
import { anyJson, responseShape } from './response-shape.ts';

/**
 * Versions of rules, tasks, pipelines and topologies (docs/detection-as-code.md, "Versions"): every
 * change stores one, numbered per record from 1, with who made it, when and the optional change
 * note of the `X-Weir-Change-Note` header; a rollback restores an earlier one as a new version.
 */

/** The request header that carries a write's change note (percent-encoded UTF-8 allowed). */
export const changeNoteHeader = 'x-weir-change-note';
export const maxChangeNoteLength = 1000;

export const versionActions = ['create', 'update', 'delete'] as const;
export type VersionAction = (typeof versionActions)[number];

const versionFields = {
  version: { type: 'integer', description: 'the version number, from 1 per record' },
  time: { type: 'string', description: 'when the change was stored (ISO 8601)' },
  user: { type: ['string', 'null'], description: 'who made the change (null: not a request of a user)' },
  action: { type: 'string', enum: versionActions },
  note: { type: 'string', description: 'the change note (X-Weir-Change-Note), when one was given' },
  rollbackOf: { type: 'integer', description: 'the version this change restored, for a rollback' },
} as const;

const versionSummaryShape = {
  type: 'object',
  properties: versionFields,
  required: ['version', 'time', 'user', 'action'],
} as const;
/** One entry of `GET /api/<kind>/{id}/versions`. */
export const versionSummary = responseShape(versionSummaryShape);
export type VersionSummary = FromSchema<typeof versionSummaryShape>;

const versionShape = {
  type: 'object',
  properties: {
    ...versionFields,
    record: { ...anyJson, description: 'the record as stored by this version; null for a deletion' },
  },
  required: ['version', 'time', 'user', 'action', 'record'],
} as const;
/** `GET /api/<kind>/{id}/versions/{version}`. */
export const versionDetail = responseShape(versionShape);
export type VersionDetail = VersionSummary & { record: unknown };

/** A field that differs between two versions: its path, the value before and after (absent: no such field). */
export interface FieldChange {
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** One line of a line diff: kept (' '), removed ('-') or added ('+'). */
export interface LineChange {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

const versionDiffShape = {
  type: 'object',
  properties: {
    from: { type: 'integer' },
    to: { type: 'integer' },
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, before: anyJson, after: anyJson },
        required: ['path'],
      },
    },
    pdl: {
      type: 'array',
      description: "rules only: a line diff of the two versions' PDL",
      items: {
        type: 'object',
        properties: { op: { type: 'string', enum: [' ', '-', '+'] }, text: { type: 'string' } },
        required: ['op', 'text'],
      },
    },
  },
  required: ['from', 'to', 'changes'],
} as const;
/** `GET /api/<kind>/{id}/versions/{from}/diff/{to}`. */
export const versionDiff = responseShape(versionDiffShape);
export interface VersionDiff {
  readonly from: number;
  readonly to: number;
  readonly changes: readonly FieldChange[];
  readonly pdl?: readonly LineChange[];
}

/** The path parameters of the version routes (checked by the route: a clear error naming the parameter). */
export const versionParams = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    version: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
} as const;
