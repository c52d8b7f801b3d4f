import type { FromSchema } from './from-schema.ts';

/**
 * The path parameters and query strings of the endpoints (the bodies: users.ts, topics.ts and the
 * record schemas of resources.ts). Query values arrive as text; the routes check what each means.
 */

/** `/api/<kind>/{id}`, `/api/lookups/{id}`, `/api/nodes/{id}`. */
export const idParams = { type: 'object', properties: { id: { type: 'string' } } } as const;

/** `GET /api/topics/{name}/tail` and `GET /api/alerts/tail`: checked by the route, which says what each must be. */
export const tailQuery = {
  type: 'object',
  properties: {
    offset: { type: 'string', description: 'earliest or latest (default latest)' },
    startOffset: { type: 'string', description: 'an offset to start at (an integer >= 0)' },
    startTimestamp: { type: 'string', description: 'a time to start at (epoch ms)' },
    partition: { type: 'string', description: 'only this partition' },
    maxSeconds: { type: 'string', description: 'close the stream after this many seconds' },
    keyDeserializer: { type: 'string', description: 'a deserializer class (default string)' },
    valueDeserializer: { type: 'string', description: 'a deserializer class (default string)' },
  },
} as const;

/** `GET /api/audit`. */
export const auditQuery = {
  type: 'object',
  properties: {
    user: { type: 'string', maxLength: 256 },
    kind: { type: 'string', maxLength: 64 },
    id: { type: 'string', maxLength: 1024 },
    from: { type: 'string', maxLength: 64 },
    to: { type: 'string', maxLength: 64 },
    offset: { type: 'string', pattern: '^[0-9]{1,9}$' },
    limit: { type: 'string', pattern: '^[0-9]{1,4}$' },
  },
  additionalProperties: false,
} as const;
export type AuditQuery = FromSchema<typeof auditQuery>;

/** `POST /api/lookups` (with `id`) and `POST /api/lookups/{id}`: the multipart parts, read and checked by the route. */
export const lookupUpload = (id: boolean) => ({
  type: 'object',
  properties: {
    ...(id ? { id: { type: 'string', description: 'the lookup id (on create)' } } : {}),
    file: { type: 'string', format: 'binary', description: 'CSV, or a JSON array of objects' },
  },
});
