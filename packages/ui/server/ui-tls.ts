import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { UiSettings } from './ui-settings.ts';

const run = promisify(execFile);

export interface UiTls {
  readonly key: Buffer;
  readonly cert: Buffer;
  readonly generated: boolean;
}

/**
 * The UI server's key and certificate: the configured pair, else a self-signed pair generated with
 * openssl under `${weir.home}/var/tls/` on first start (kept, mode 600), like the engine's key store.
 */
export async function loadUiTls(settings: UiSettings): Promise<UiTls> {
  const keyFile = settings['server.ssl.key'];
  const certFile = settings['server.ssl.cert'];
  if (keyFile || certFile) {
    if (!keyFile || !certFile) throw new Error('server.ssl.key and server.ssl.cert must be given together');
    return {
      key: readOrFail(keyFile, 'server.ssl.key'),
      cert: readOrFail(certFile, 'server.ssl.cert'),
      generated: false,
    };
  }
  const dir = path.join(settings['weir.home'], 'var', 'tls');
  const key = path.join(dir, 'ui-key.pem');
  const cert = path.join(dir, 'ui-cert.pem');
  if (!existsSync(key) || !existsSync(cert)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '3650',
        '-subj',
        '/CN=localhost/O=Weir',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
      ]);
    } catch (err) {
      throw new Error(`could not generate the UI's self-signed certificate with openssl: ${(err as Error).message}`, {
        cause: err,
      });
    }
    chmodSync(key, 0o600);
  }
  return { key: readFileSync(key), cert: readFileSync(cert), generated: true };
}

function readOrFail(file: string, setting: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`${setting}: cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}
