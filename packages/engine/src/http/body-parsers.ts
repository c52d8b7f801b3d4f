import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { apiError } from '../errors.ts';

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

export function parseJson(text: string): unknown {
  if (text.trim() === '') throw apiError('MALFORMED_JSON', 'the body is empty');
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw apiError('MALFORMED_JSON', (err as Error).message);
  }
}
