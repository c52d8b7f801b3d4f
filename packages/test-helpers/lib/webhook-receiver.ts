import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1 made with openssl for the test (never a key in the repository). */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-webhook-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A private CA (made with openssl for the test) and a certificate it signed for 127.0.0.1, as a
 * receiver inside an organisation has: `ca` is what a notifier's `caCertificate` is given, `key` and
 * `cert` what the receiver serves. Node's default CAs do not trust it.
 */
export function privateCaCertificate(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-webhook-ca-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca-key.pem',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Weir test private CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl('req', ...ec, '-keyout', 'key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(
      path.join(dir, 'server.ext'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-out',
      'cert.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    );
    const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
    return { ca: read('ca.pem'), key: read('key.pem'), cert: read('cert.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One request the receiver got. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly status: number;
}

/** A local HTTPS webhook receiver on 127.0.0.1: answers each request with what `answer` says. */
export interface WebhookReceiver {
  readonly url: string;
  readonly cert: string;
  readonly requests: ReceivedRequest[];
  answer: (path: string) => { status: number; headers?: Record<string, string> };
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  tls: { key: string; cert: string } = selfSignedCertificate(),
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    cert: tls.cert,
    requests,
    answer: () => ({ status: 200 }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { status, headers } = receiver.answer(req.url ?? '/');
      requests.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), status });
      res.writeHead(status, headers).end(status < 300 ? 'ok' : 'unavailable');
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, { url: `https://127.0.0.1:${port}` });
}
