import type { FromSchema } from './from-schema.ts';
import { responseShape } from './response-shape.ts';

/**
 * Silences, Alertmanager's model (docs/alerts.md, "Silences"): matchers on an alert's fields, a
 * start and an end, who made it and why. A silence is `pending` before its start, `active` from its
 * start until its end, `expired` from its end on; an expired silence stays readable.
 */

/** `=` equals, `!=` does not equal, `=~` matches the regular expression (whole value), `!~` does not. */
export const silenceOps = ['=', '!=', '=~', '!~'] as const;
export type SilenceOp = (typeof silenceOps)[number];

export const silenceStates = ['pending', 'active', 'expired'] as const;
export type SilenceState = (typeof silenceStates)[number];

/** Limits of a silence's request body. */
export const silenceLimits = {
  matchers: 64,
  fieldLength: 256,
  valueLength: 1024,
  commentLength: 4096,
} as const;

/** An ISO 8601 date-time (`2026-11-23T06:00:00Z`) or milliseconds since the epoch. */
const instant = {
  type: ['string', 'integer'],
  maxLength: 64,
  description: 'an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch',
} as const;

export const silenceMatcherSchema = {
  type: 'object',
  properties: {
    /** A path into the alert record, dots for nesting (`_rule.id`, `host.name`). */
    field: { type: 'string', minLength: 1, maxLength: silenceLimits.fieldLength },
    op: { type: 'string', enum: silenceOps },
    value: { type: 'string', maxLength: silenceLimits.valueLength },
  },
  required: ['field', 'op', 'value'],
  additionalProperties: false,
} as const;

const silenceFields = {
  matchers: { type: 'array', items: silenceMatcherSchema, minItems: 1, maxItems: silenceLimits.matchers },
  startsAt: instant,
  endsAt: instant,
  comment: { type: 'string', minLength: 1, maxLength: silenceLimits.commentLength },
} as const;

/**
 * `POST /api/silences` and `PUT /api/silences/{id}`: matchers, end and comment are required; the
 * start defaults to now (POST) or stays as it was (PUT). The id, creator and times are the server's.
 */
export const silenceBody = {
  type: 'object',
  properties: silenceFields,
  required: ['matchers', 'endsAt', 'comment'],
  additionalProperties: false,
} as const;

/** `GET /api/silences?state=active`. */
export const silenceListQuery = {
  type: 'object',
  properties: { state: { type: 'string', enum: silenceStates } },
  additionalProperties: false,
} as const;

export type SilenceMatcher = FromSchema<typeof silenceMatcherSchema>;
export type SilenceRequest = FromSchema<typeof silenceBody>;
export type SilenceListQuery = FromSchema<typeof silenceListQuery>;

const string = { type: 'string' } as const;
const silenceShape = {
  type: 'object',
  properties: {
    id: string,
    matchers: {
      type: 'array',
      items: { type: 'object', properties: silenceMatcherSchema.properties, required: ['field', 'op', 'value'] },
    },
    startsAt: string,
    endsAt: string,
    comment: string,
    createdBy: string,
    createdAt: string,
    updatedBy: string,
    updatedAt: string,
    state: { type: 'string', enum: silenceStates },
  },
  description: 'a silence; times are ISO 8601, state is derived from them at the time of the answer',
  required: ['id', 'matchers', 'startsAt', 'endsAt', 'comment', 'createdBy', 'createdAt', 'state'],
} as const;

/** A silence as answered: the stored record and its state at the time of the answer. */
export const silence = responseShape(silenceShape);
export type Silence = FromSchema<typeof silenceShape>;
/** A silence as stored (every node's config store): the answer without its derived state. */
export type StoredSilence = Omit<Silence, 'state'>;

/** A silence's state at `at` (ms since the epoch): pending before its start, expired from its end on. */
export function silenceState(s: { readonly startsAt: string; readonly endsAt: string }, at: number): SilenceState {
  if (at < Date.parse(s.startsAt)) return 'pending';
  return at < Date.parse(s.endsAt) ? 'active' : 'expired';
}

/**
 * A matcher written as text, as `weirctl silence create --match` and the console's links take it:
 * `field=value`, `field!=value`, `field=~regex`, `field!~regex` (the first operator after the field
 * name counts, so a value may hold `=`). Undefined when the text is none of these.
 */
export function parseMatcherText(text: string): SilenceMatcher | undefined {
  const m = /^([^=!~]+?)\s*(=~|!~|!=|=)(.*)$/s.exec(text);
  if (m === null || m[1]!.trim() === '') return undefined;
  return { field: m[1]!.trim(), op: m[2] as SilenceOp, value: m[3]! };
}

/** A matcher as text: the field, the operator and the value in quotes (`user!="root"`). */
export function matcherText(m: SilenceMatcher): string {
  return `${m.field}${m.op}${JSON.stringify(m.value)}`;
}
