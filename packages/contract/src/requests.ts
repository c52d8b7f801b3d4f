import type { FromSchema } from './from-schema.ts';
import { serdeConfiguration } from './serdes.ts';

/**
 * The path parameters and query strings of the endpoints (the bodies: users.ts, topics.ts and the
 * record schemas of resources.ts). Query values arrive as text and are typed here: the API's
 * validator turns `?partition=3` into the integer 3 (and refuses `?partition=x`) before the route runs.
 */

/** `/api/<kind>/{id}`, `/api/lookups/{id}`, `/api/nodes/{id}`. */
export const idParams = { type: 'object', properties: { id: { type: 'string' } } } as const;

/** A whole number in a query string: at most 15 digits, so every one is exact as a JavaScript number. */
const queryInteger = { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 } as const;

/** `GET /api/topics/{name}/tail` and `GET /api/alerts/tail` (the start position's rules: the route). */
export const tailQuery = {
  type: 'object',
  properties: {
    offset: { type: 'string', enum: ['earliest', 'latest'], description: 'earliest or latest (default latest)' },
    startOffset: { ...queryInteger, description: 'an offset to start at (an integer >= 0)' },
    startTimestamp: { ...queryInteger, description: 'a time to start at (epoch ms)' },
    partition: { ...queryInteger, description: 'only this partition' },
    maxSeconds: { ...queryInteger, description: 'close the stream after this many seconds' },
    keyDeserializer: {
      type: 'string',
      enum: serdeConfiguration.deserializer,
      description: 'a deserializer class (default string)',
    },
    valueDeserializer: {
      type: 'string',
      enum: serdeConfiguration.deserializer,
      description: 'a deserializer class (default string)',
    },
  },
} as const;
export type TailQuery = FromSchema<typeof tailQuery>;

/** `GET /api/audit`. */
export const auditQuery = {
  type: 'object',
  properties: {
    user: { type: 'string', maxLength: 256 },
    kind: { type: 'string', maxLength: 64 },
    id: { type: 'string', maxLength: 1024 },
    from: { type: 'string', maxLength: 64 },
    to: { type: 'string', maxLength: 64 },
    offset: { type: 'integer', minimum: 0, maximum: 999_999_999 },
    // 1 to 1000: the route says so in the spec's words (`query.limit must be from 1 to 1000; got 0`).
    limit: { type: 'integer', minimum: 0, maximum: 999_999_999 },
  },
  additionalProperties: false,
} as const;
export type AuditQuery = FromSchema<typeof auditQuery>;

/**
 * `POST /api/lookups` (with `id`) and `POST /api/lookups/{id}`: the multipart parts. The route reads
 * them, then checks what it read against this schema (`id` as its text, `file` as its file name).
 */
export const lookupUpload = (id: boolean) => ({
  type: 'object',
  properties: {
    ...(id ? { id: { type: 'string', description: 'the lookup id (on create)' } } : {}),
    file: { type: 'string', format: 'binary', description: 'CSV, or a JSON array of objects' },
  },
  required: id ? ['id', 'file'] : ['file'],
});

/** `POST /api/import/sigma` as JSON: the Sigma YAML and the import's options. */
export const sigmaImportJson = {
  type: 'object',
  properties: {
    yaml: { type: 'string' },
    /** A built-in mapping's name (e.g. `evtx-json`); the server's default when omitted. */
    mapping: { type: 'string' },
    /** A mapping file of your own (YAML), instead of `mapping`. */
    mappingYaml: { type: 'string' },
    dryRun: { type: 'boolean' },
    /** Recorded as each rule's license (SigmaHQ's rules carry none: `DRL-1.1`). */
    license: { type: ['string', 'null'] },
  },
  required: ['yaml'],
} as const;
export type SigmaImportRequest = FromSchema<typeof sigmaImportJson>;

/**
 * `POST /api/import/sigma`: the YAML as text (options in the query) or the JSON form; checked where
 * it is handled (the route's readRequest words its errors), declared here for the API document.
 */
export const sigmaImportBody = {
  description:
    'Sigma YAML as text/plain, application/yaml or application/x-yaml (options in the query), or JSON {yaml, mapping | mappingYaml, dryRun, license}',
  anyOf: [{ type: 'string' }, { type: 'object', properties: sigmaImportJson.properties }],
};

/** Options of the text form of `POST /api/import/sigma` (checked by the route, which words their errors). */
export const sigmaImportQuery = {
  type: 'object',
  properties: {
    mapping: { type: 'string' },
    dryRun: { type: 'string', description: 'true or false' },
    license: { type: 'string' },
  },
};
