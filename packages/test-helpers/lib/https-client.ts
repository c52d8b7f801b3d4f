import https from 'node:https';
import http from 'node:http';

export interface HttpResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON (undefined when empty or not JSON). */
  readonly body: unknown;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  /** Sent as is (no JSON encoding) when a string and `contentType` is given. */
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });

/** A real HTTP(S) request to a running node (the self-signed certificate is accepted). */
export function request(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let payload: Buffer | undefined;
  if (options.body !== undefined) {
    if (options.contentType && typeof options.body === 'string') payload = Buffer.from(options.body);
    else if (Buffer.isBuffer(options.body)) payload = options.body;
    else payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] ??= options.contentType ?? 'application/json;charset=UTF-8';
    headers['content-length'] = String(payload.length);
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method, headers, agent: url.protocol === 'https:' ? agent : undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
