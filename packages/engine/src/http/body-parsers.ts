import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { apiError } from '../errors.ts';

/**
 * JSON bodies fail with a 400 error object that says what is wrong and where; `__proto__` and
 * `constructor.prototype` keys are refused. Plain text is kept as a string (the test endpoints).
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const json = (_req: unknown, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    try {
      done(null, parseJson(String(body)));
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
