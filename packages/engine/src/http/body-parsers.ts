import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { apiError } from '../core/errors.ts';

/**
 * JSON bodies fail with a 400 error object that says what is wrong and where; `__proto__` and
 * `constructor.prototype` keys are refused. Plain text is kept as a string (the test endpoints).
 * An empty JSON body is no body (many clients send `Content-Type: application/json` on body-less
 * calls such as `POST /api/engine/start`); a route that needs a body says so itself.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const json = (_req: unknown, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    try {
      const text = String(body);
      done(null, text.trim() === '' ? undefined : parseJson(text));
    } catch (err) {
      done(err as Error);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  app.addContentTypeParser(/^application\/[\w.+-]*\+json$/, { parseAs: 'string' }, json);
  app.addContentTypeParser(['text/plain'], { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

/** The YAML media types (RFC 9512's `application/yaml` and the older `application/x-yaml`). */
export const yamlMediaTypes = ['application/yaml', 'application/x-yaml'] as const;

/**
 * YAML bodies kept as a string, for the routes that take YAML (POST /api/import/sigma): registered
 * on that route's own scope, so every other route still answers 415 to YAML.
 */
export function registerYamlParser(app: FastifyInstance): void {
  app.addContentTypeParser([...yamlMediaTypes], { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

/** True when a request's Content-Type header names a YAML media type (parameters such as charset allowed). */
export function isYamlMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return (yamlMediaTypes as readonly string[]).includes(type);
}

/** Deepest nesting of arrays and objects a JSON body may have (docs/security.md, "Input handling"). */
export const maxJsonDepth = 100;

/** True when the JSON text nests arrays/objects deeper than `limit` (one linear scan, no allocation). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') throw apiError('MALFORMED_JSON', 'the body is empty');
  // Checked before parsing: every later step (validation, copying, turning it back into text) may recurse.
  if (nestsDeeperThan(text, maxJsonDepth)) throw apiError('BODY_TOO_DEEP', maxJsonDepth);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw apiError('MALFORMED_JSON', (err as Error).message);
  }
}
