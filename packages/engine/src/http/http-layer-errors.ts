import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fixedHeaders } from '@weir/contract';
import { apiError, type ApiError } from '../core/errors.ts';

/** Longest path parameter (percent-encoded) the router takes: a 256-character id of 4-byte characters is 3,072. */
export const maxPathParamLength = 4096;

/** Node's limit on the request line and headers together (its default, `--max-http-header-size`). */
export const maxHeaderBytes = 16_384;

/**
 * Errors of the router, before any route runs (Fastify's `frameworkErrors`): a path that is not valid
 * percent-encoding, a path parameter over the limit. Answered with the spec's error object.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0]!;
  const err =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? apiError('PATH_PARAM_TOO_LONG', maxPathParamLength)
      : error.code === 'FST_ERR_BAD_URL'
        ? apiError('URL_INVALID', path.length > 200 ? `${path.slice(0, 200)}…` : path)
        : apiError('VALIDATION', error.message);
  void reply.code(err.httpStatus).headers(fixedHeaders).type('application/json').send(err.body);
}

/** How long a connection refused by the HTTP layer still reads (and drops) what its client sends. */
export const lingerMs = 2000;

/** Connections already answered and closing: the parser reports each later chunk again; answered once. */
const closing = new WeakSet<Socket>();

/**
 * Errors of Node's HTTP parser (Fastify's `clientErrorHandler`): headers too large, a request not in
 * time, bytes that are not HTTP. The error object is written and the connection closed.
 *
 * The close lingers: the server ends its side and reads on, dropping what arrives, until the client
 * closes or `lingerMs` passes. Destroying the socket at once, with the rest of a long request line
 * still arriving, makes the kernel answer with a reset, and a client still writing loses the answer
 * (`write ECONNRESET`), as Apache's and nginx's lingering close avoid.
 */
export function clientError(timeoutSeconds: { headers: number; request: number }) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (closing.has(socket)) return;
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let error: ApiError;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      error = apiError('REQUEST_TIMEOUT', timeoutSeconds.headers, timeoutSeconds.request);
    else if (err.code === 'HPE_HEADER_OVERFLOW') error = apiError('HEADERS_TOO_LARGE', maxHeaderBytes);
    else error = apiError('HTTP_INVALID', err.code ?? 'unknown');
    if (!socket.writable) {
      socket.destroy(err);
      return;
    }
    const body = JSON.stringify(error.body);
    const reason =
      { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
        error.httpStatus as 400 | 408 | 431
      ] ?? 'Bad Request';
    const headers = Object.entries(fixedHeaders)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    closing.add(socket);
    const linger = setTimeout(() => socket.destroy(), lingerMs);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.once('end', () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 ${error.httpStatus} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n${headers}Connection: close\r\n\r\n${body}`,
    );
    // Reading goes on (the parser's own listener answers its later errors here, once): the rest is dropped.
    socket.resume();
  };
}
