import { readFileSync } from 'node:fs';
import https from 'node:https';
import { Readable } from 'node:stream';

export interface TlsOptions {
  /** Accept any certificate (self-signed servers in a lab). */
  insecure?: boolean;
  /** Path of a PEM file with the CA (or the self-signed certificate) to trust. */
  ca?: string;
}

/**
 * The fetch the SDK is given: the platform's own, or, when the server's certificate must be trusted
 * explicitly (--ca) or not checked (--insecure), a fetch over node:https with that agent. Bodies
 * stream (live tails), and cancelling the body closes the connection.
 */
export function makeFetch(tls: TlsOptions): typeof fetch {
  if (!tls.insecure && !tls.ca) return globalThis.fetch.bind(globalThis);
  let ca: Buffer | undefined;
  if (tls.ca) {
    try {
      ca = readFileSync(tls.ca);
    } catch (err) {
      throw new Error(`cannot read the CA file ${tls.ca}: ${(err as Error).message}`, { cause: err });
    }
  }
  const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: !tls.insecure, ...(ca ? { ca } : {}) });
  const httpsFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v;
    });
    let payload: Buffer | undefined;
    if (init.body instanceof FormData) {
      const encoded = new Request(url, { method: 'POST', body: init.body });
      headers['content-type'] = encoded.headers.get('content-type')!;
      payload = Buffer.from(await encoded.arrayBuffer());
    } else if (typeof init.body === 'string') {
      payload = Buffer.from(init.body);
    } else if (init.body != null) {
      throw new TypeError('weirctl transport: unsupported request body');
    }
    if (payload) headers['content-length'] = String(payload.length);
    const lib = url.protocol === 'https:' ? https : await import('node:http');
    return new Promise((resolve, reject) => {
      const req = lib.request(
        url,
        { method: init.method ?? 'GET', headers, ...(url.protocol === 'https:' ? { agent } : {}) },
        (res) => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304 || init.method === 'HEAD';
          if (empty) res.resume();
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: h }),
          );
        },
      );
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.end(payload);
    });
  };
  return httpsFetch as typeof fetch;
}
