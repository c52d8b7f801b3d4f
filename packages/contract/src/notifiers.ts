import type { FromSchema } from './from-schema.ts';
import { stringId } from './ids.ts';
import { severitySchema } from './severity.ts';

/**
 * Notifiers (docs/alerts.md, "Notifications"): HTTPS webhooks that receive the alerts their matcher
 * holds for, signed with HMAC-SHA256. The `secret` is write-only: a request sets it, no answer
 * carries it (answers say `secretSet: true`), and a PUT without one keeps the stored one.
 */

/** Which alerts a notifier receives: every condition given must hold (an empty matcher: every alert). */
export const notifierMatcherSchema = {
  type: 'object',
  properties: {
    /** The alert's severity is at least this one (`high`: high and critical). */
    minSeverity: severitySchema,
    /** The alert's rule id is one of these. */
    rules: { type: 'array', items: stringId, minItems: 1, maxItems: 1000 },
    /** One of the alert's techniques is one of these, or a sub-technique of one (`T1059` holds for `T1059.001`). */
    techniques: {
      type: 'array',
      items: { type: 'string', pattern: '^[Tt]\\d{4}(\\.\\d{3})?$' },
      minItems: 1,
      maxItems: 1000,
    },
  },
  additionalProperties: false,
} as const;

const notifierFields = {
  id: stringId,
  name: { type: 'string', minLength: 1, maxLength: 256 },
  description: { type: 'string', maxLength: 16384 },
  /** The receiver: an `https://` URL (checked by the engine, which names the field when it is not). */
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  /** The HMAC-SHA256 key of the `X-Weir-Signature` header; write-only. */
  secret: { type: 'string', minLength: 16, maxLength: 1024 },
  matcher: notifierMatcherSchema,
  /** Requests per minute to this receiver at most; beyond it deliveries wait (none is dropped). Default 60. */
  rateLimitPerMinute: { type: 'integer', minimum: 1, maximum: 60_000 },
  /** Default true. */
  enabled: { type: 'boolean' },
  /** PEM certificate(s) of the CA that signed the receiver's certificate, trusted for this notifier only. */
  caCertificate: { type: 'string', minLength: 1, maxLength: 65_536 },
} as const;

/** POST /api/notifiers. */
export const newNotifierBody = {
  type: 'object',
  properties: notifierFields,
  required: ['id', 'name', 'url', 'secret'],
  additionalProperties: false,
} as const;

/** PUT /api/notifiers/{id}: the whole notifier, but `secret` may be left out (the stored one is kept); `id`, when given, is the path's. */
export const notifierUpdateBody = {
  type: 'object',
  properties: notifierFields,
  required: ['name', 'url'],
  additionalProperties: false,
} as const;

/** A notifier as answered: never its secret. */
export const notifierSchema = {
  type: 'object',
  properties: {
    id: notifierFields.id,
    name: notifierFields.name,
    description: notifierFields.description,
    url: notifierFields.url,
    matcher: notifierMatcherSchema,
    rateLimitPerMinute: notifierFields.rateLimitPerMinute,
    enabled: notifierFields.enabled,
    caCertificate: notifierFields.caCertificate,
    /** Always true: a notifier cannot exist without a secret; the secret itself is never answered. */
    secretSet: { type: 'boolean' },
  },
  required: ['id', 'name', 'url', 'matcher', 'rateLimitPerMinute', 'enabled', 'secretSet'],
  additionalProperties: false,
} as const;

export const defaultNotifierRateLimit = 60;

export type NotifierMatcher = FromSchema<typeof notifierMatcherSchema>;
export type NewNotifier = FromSchema<typeof newNotifierBody>;
export type NotifierUpdate = FromSchema<typeof notifierUpdateBody>;
/** A notifier as the API answers it. */
export type Notifier = FromSchema<typeof notifierSchema>;
/** A notifier as stored (with its secret). */
export type StoredNotifier = Omit<Notifier, 'secretSet'> & { readonly secret: string };
