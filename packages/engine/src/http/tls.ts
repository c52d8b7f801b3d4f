import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Settings } from '../config/settings.ts';
import { keytoolSecrets } from '../core/keytool-secrets.ts';

const run = promisify(execFile);

export interface TlsMaterial {
  readonly pfx: Buffer;
  readonly passphrase: string;
  readonly file: string;
}

/**
 * The API's PKCS12 key store: the configured one, or a self-signed one generated with the JDK's
 * keytool under `${weir.home}/var/tls/` on first start (its random password kept beside it, mode 600).
 */
export async function loadKeyStore(settings: Settings): Promise<TlsMaterial> {
  const configured = settings.optional('server.ssl.key-store');
  if (configured) {
    const passphrase = settings.optional('server.ssl.key-store-password') ?? '';
    let pfx: Buffer;
    try {
      pfx = readFileSync(configured);
    } catch (err) {
      throw new Error(`server.ssl.key-store: cannot read ${configured}: ${(err as Error).message}`, { cause: err });
    }
    return { pfx, passphrase, file: configured };
  }
  const dir = path.join(settings.get('weir.home'), 'var', 'tls');
  const file = path.join(dir, 'weir.p12');
  const passwordFile = `${file}.password`;
  if (!existsSync(file) || !existsSync(passwordFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const passphrase = settings.optional('server.ssl.key-store-password') ?? randomBytes(18).toString('base64url');
    const secret = keytoolSecrets([['-storepass', passphrase]]);
    try {
      await run(
        'keytool',
        [
          '-genkeypair',
          '-alias',
          settings.get('server.ssl.key-alias'),
          '-keyalg',
          'RSA',
          '-keysize',
          '2048',
          '-storetype',
          'PKCS12',
          '-keystore',
          file,
          ...secret.args,
          '-validity',
          '3650',
          '-dname',
          'CN=localhost, O=Weir',
          '-ext',
          'SAN=dns:localhost,ip:127.0.0.1,ip:0:0:0:0:0:0:0:1',
        ],
        { env: secret.env },
      );
    } catch (err) {
      throw new Error(
        `could not generate the self-signed key store with keytool (Java 17 is required): ${(err as Error).message}`,
        { cause: err },
      );
    }
    writeFileSync(passwordFile, passphrase, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { pfx: readFileSync(file), passphrase: readFileSync(passwordFile, 'utf8').trim(), file };
}
