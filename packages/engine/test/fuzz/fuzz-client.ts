import https from 'node:https';

/** One request of the fuzz suite, sent byte for byte as built (no JSON encoding, no header fixes). */
export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already encoded as they go on the wire. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** What kind of input it is (schema, mutation:<name>, malformed-json, content-type, path, query, token). */
  readonly label: string;
}

export interface FuzzResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly ms: number;
  /** The `ETag` header, when the answer has one. */
  readonly etag?: string;
}

/** An answer larger than this fails the request (the largest legitimate ones, lookups and topic reads, are far smaller). */
export const maxAnswerBytes = 64 * 1024 * 1024;

/** No answer within this time is a hang. */
export const requestTimeoutMs = 15_000;

const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: 16 });
/** The suite's own reads (snapshots, setup) go on other connections than the fuzz inputs. */
const controlAgent = new https.Agent({ rejectUnauthorized: false, keepAlive: true, maxSockets: 4 });

/**
 * Sends a request; a `text/event-stream` answer (the live tails) is closed once its head arrived.
 * Rejects on a connection error and on no answer within requestTimeoutMs (the hang is named).
 */
export async function send(baseUrl: string, r: FuzzRequest, control = false): Promise<FuzzResponse> {
  try {
    return await sendOnce(baseUrl, r, control ? controlAgent : agent);
  } catch (err) {
    // A kept-alive connection the server closed as the request went out (a race of keep-alive, not an answer): once more on a new one.
    if ((err as { reusedSocket?: boolean }).reusedSocket) return sendOnce(baseUrl, r, control ? controlAgent : agent);
    throw err;
  }
}

function sendOnce(baseUrl: string, r: FuzzRequest, agent: https.Agent): Promise<FuzzResponse> {
  const started = performance.now();
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = String(r.body.length);
    const req = https.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.startsWith('text/event-stream')) {
          res.destroy();
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, contentType, text: '', ms: performance.now() - started });
          return;
        }
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          chunks.push(c);
          // An answer this large is a defect of its own (a small request made the node write it): named, not buffered on.
          if (bytes > maxAnswerBytes) {
            chunks.length = 0;
            req.destroy(
              new Error(`an answer of over ${maxAnswerBytes} bytes (status ${res.statusCode}, ${contentType})`),
            );
          }
        });
        res.on('end', () => {
          clearTimeout(timer);
          const etag = res.headers.etag;
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
            ...(etag === undefined ? {} : { etag }),
          });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(
        new Error(`no answer within ${requestTimeoutMs} ms (a hang): ${r.method} ${r.path.slice(0, 120)} [${r.label}]`),
      );
    }, requestTimeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(
        Object.assign(err, { reusedSocket: req.reusedSocket && (err as { code?: string }).code === 'ECONNRESET' }),
      );
    });
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

const statusNames: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

/**
 * Why a 4xx answer is not what the spec says (Errors): 401 and 403 have an empty body (the refresh
 * failure `{error_message}`); every other 4xx is the error object `{status, message, debugMessage}`
 * (optionally `errors`) with the status name of its code. Undefined when it is right.
 */
export function errorShapeProblem(path: string, res: FuzzResponse): string | undefined {
  if (res.status === 401 || res.status === 403) {
    if (res.text === '') return undefined;
    if (path.startsWith('/api/token/refresh') && /^\{"error_message":"[^"]+"\}$/.test(res.text)) return undefined;
    return `a ${res.status} with a body`;
  }
  if (!res.contentType.startsWith('application/json')) return `content type '${res.contentType}'`;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return 'a body that is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'a body that is not an object';
  const b = body as Record<string, unknown>;
  for (const key of ['status', 'message', 'debugMessage'])
    if (typeof b[key] !== 'string' || b[key] === '') return `no string '${key}'`;
  const expected = statusNames[res.status];
  if (expected === undefined) return `the status code ${res.status}, which the spec does not use`;
  if (b.status !== expected) return `status '${String(b.status)}' on a ${res.status}`;
  const extra = Object.keys(b).filter((k) => !['status', 'message', 'debugMessage', 'errors'].includes(k));
  if (extra.length > 0) return `unexpected keys ${extra.join(', ')}`;
  if (b.errors !== undefined && !Array.isArray(b.errors)) return "'errors' that is not an array";
  return undefined;
}
