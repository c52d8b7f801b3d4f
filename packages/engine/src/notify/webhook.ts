import https from 'node:https';

/** One HTTPS POST to a receiver. */
export interface WebhookRequest {
  readonly url: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  /** Certificates trusted for this request (PEM); undefined: Node's default CAs. */
  readonly ca: readonly string[] | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** What came of it: the status (and `Retry-After`), or the network error. */
export type WebhookOutcome =
  | { readonly status: number; readonly retryAfter: string | undefined; readonly detail: string }
  | { readonly error: string };

const maxDetail = 200;

/**
 * Sends a webhook request over HTTPS (never plain HTTP; certificates are always verified, against
 * `ca` when given) and reads the answer's status and first bytes. Redirects are not followed.
 */
export function postWebhook(request: WebhookRequest): Promise<WebhookOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const url = new URL(request.url);
    if (url.protocol !== 'https:') return done({ error: `not an https:// URL: ${url.protocol}` });
    const req = https.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(request.body.length) },
        ...(request.ca === undefined ? {} : { ca: [...request.ca] }),
        agent: false,
        timeout: request.timeoutMs,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < maxDetail) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          const text = Buffer.concat(chunks).toString('utf8').slice(0, maxDetail).trim();
          done({
            status: res.statusCode ?? 0,
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            detail: `HTTP ${res.statusCode}${text ? `: ${text}` : ''}`,
          });
        });
        res.on('error', (err) => done({ error: err.message }));
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${request.timeoutMs} ms`));
    });
    req.on('error', (err) => done({ error: describe(err) }));
    req.end(request.body);
  });
}

function describe(err: Error & { code?: string }): string {
  return err.code && !err.message.includes(err.code) ? `${err.message} (${err.code})` : err.message;
}
