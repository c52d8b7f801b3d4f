import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { BaseOptions, Consumer } from '@platformatic/kafka';
import type { Settings } from '../config/settings.ts';
import { SettingsError } from '../config/settings.ts';
import { keytoolSecrets } from '../core/keytool-secrets.ts';

type ConnectionSettings = Pick<
  BaseOptions,
  'bootstrapBrokers' | 'clientId' | 'tls' | 'sasl' | 'connectTimeout' | 'requestTimeout'
>;

/** How a client reaches the cluster, without its client id (each client of a worker names itself). */
export type KafkaConnection = Omit<ConnectionSettings, 'clientId'>;

/** A consumer of raw bytes (keys, values, header keys and values). */
export type BufferConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;

const mechanisms = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
const protocols = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;

/**
 * Every `ssl.*` / `sasl.*` key Weir applies (docs/configuration.md, "Kafka client security"). Any
 * other key under those prefixes is refused at start, naming it: none is silently ignored.
 */
export const supportedKafkaSecurityKeys = [
  'security.protocol',
  'ssl.ca.location',
  'ssl.certificate.location',
  'ssl.key.location',
  'ssl.key.password',
  'ssl.keystore.location',
  'ssl.keystore.password',
  'ssl.keystore.type',
  'ssl.truststore.location',
  'ssl.truststore.password',
  'ssl.truststore.type',
  'ssl.endpoint.identification.algorithm',
  'ssl.enabled.protocols',
  'ssl.protocol',
  'ssl.cipher.suites',
  'sasl.mechanism',
  'sasl.jaas.config',
  'sasl.username',
  'sasl.password',
] as const;

const tlsVersions: Record<string, 'TLSv1.2' | 'TLSv1.3'> = {
  'TLSV1.2': 'TLSv1.2',
  'TLSV1.3': 'TLSv1.3',
  TLS: 'TLSv1.2',
};

/**
 * Connection options of every Kafka client of a node: `bootstrap.servers` plus the Kafka security
 * settings, each applied:
 * `security.protocol` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL); trust: `ssl.ca.location` (PEM)
 * and/or `ssl.truststore.location` + `ssl.truststore.password` + `ssl.truststore.type` (JKS or
 * PKCS12, read with the JDK's keytool); client certificate (mutual TLS): `ssl.certificate.location` +
 * `ssl.key.location` + `ssl.key.password` (PEM) or `ssl.keystore.location` + `ssl.keystore.password`
 * (+ `ssl.key.password` when the key's differs) + `ssl.keystore.type` (PKCS12, or JKS converted with
 * keytool); `ssl.endpoint.identification.algorithm` (`https`, the default, checks the host name;
 * empty: no host check); `ssl.enabled.protocols` / `ssl.protocol` (TLSv1.2, TLSv1.3: the lowest
 * named is the minimum); `ssl.cipher.suites` (OpenSSL or IANA names, comma-separated);
 * `sasl.mechanism` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with `sasl.username`/`sasl.password` or a
 * `sasl.jaas.config` holding username="..." password="...".
 */
export function kafkaConnection(settings: Settings, clientId: string): ConnectionSettings {
  return kafkaConnectionFrom(settings.get('bootstrap.servers'), settings.kafkaClient, clientId);
}

/** Keys under `ssl.` / `sasl.` that Weir does not apply; loading settings refuses them. */
export function unsupportedKafkaSecurityKeys(k: Readonly<Record<string, string>>): string[] {
  return Object.keys(k).filter((key) => !(supportedKafkaSecurityKeys as readonly string[]).includes(key));
}

const cache = new Map<string, Buffer | string>();

function readFile(k: Readonly<Record<string, string>>, key: string): Buffer | undefined {
  const file = k[key];
  if (!file) return undefined;
  try {
    return readFileSync(file);
  } catch (err) {
    throw new SettingsError(`'${key}': cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Runs keytool; `secrets` (option, password) reach it through the environment (keytool-secrets.ts). */
function keytool(key: string, args: string[], secrets: readonly (readonly [string, string])[] = []): Buffer {
  const secret = keytoolSecrets(secrets);
  try {
    return execFileSync('keytool', [...args, ...secret.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      env: secret.env,
    });
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
    const why = `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`.trim() || e.message;
    throw new SettingsError(`'${key}': keytool could not read it (a wrong password or type?): ${why}`);
  }
}

/** The trusted certificates of a JKS or PKCS12 trust store, as PEM (keytool -list -rfc). */
function trustStorePem(k: Readonly<Record<string, string>>): string | undefined {
  const file = k['ssl.truststore.location'];
  if (!file) return undefined;
  readFile(k, 'ssl.truststore.location');
  const type = (k['ssl.truststore.type'] ?? 'JKS').toUpperCase();
  if (type !== 'JKS' && type !== 'PKCS12')
    throw new SettingsError(`invalid value '${type}' for 'ssl.truststore.type'; accepted: JKS, PKCS12`);
  const id = `trust\u0000${file}\u0000${type}\u0000${k['ssl.truststore.password'] ?? ''}`;
  let pem = cache.get(id) as string | undefined;
  if (pem === undefined) {
    const args = ['-list', '-rfc', '-keystore', file, '-storetype', type];
    const password = k['ssl.truststore.password'];
    if (password === undefined) args.push('-storepass', '', '-noprompt');
    const secrets: [string, string][] = password === undefined ? [] : [['-storepass', password]];
    const out = keytool('ssl.truststore.location', args, secrets).toString();
    const certs = out.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
    if (certs.length === 0) throw new SettingsError(`'ssl.truststore.location': ${file} holds no certificate`);
    pem = certs.join('\n');
    cache.set(id, pem);
  }
  return pem;
}

/** The client key store as PKCS12 bytes (a JKS one is converted by keytool). */
function keyStorePfx(k: Readonly<Record<string, string>>): Buffer | undefined {
  const bytes = readFile(k, 'ssl.keystore.location');
  if (!bytes) return undefined;
  const type = (k['ssl.keystore.type'] ?? 'PKCS12').toUpperCase();
  if (type === 'PKCS12') return bytes;
  if (type !== 'JKS') throw new SettingsError(`invalid value '${type}' for 'ssl.keystore.type'; accepted: PKCS12, JKS`);
  const file = k['ssl.keystore.location']!;
  const id = `key\u0000${file}`;
  const cached = cache.get(id) as Buffer | undefined;
  if (cached) return cached;
  const password = k['ssl.keystore.password'] ?? '';
  const out = `${process.env.TMPDIR ?? '/tmp'}/weir-ks-${process.pid}-${Date.now()}.p12`;
  try {
    const keyPassword = k['ssl.key.password'];
    keytool(
      'ssl.keystore.location',
      [
        '-importkeystore',
        '-noprompt',
        '-srckeystore',
        file,
        '-srcstoretype',
        'JKS',
        '-destkeystore',
        out,
        '-deststoretype',
        'PKCS12',
      ],
      [
        ['-srcstorepass', password],
        ...(keyPassword
          ? [
              ['-srckeypass', keyPassword],
              ['-destkeypass', password],
            ]
          : []),
        ['-deststorepass', password],
      ] as [string, string][],
    );
    const pfx = readFileSync(out);
    cache.set(id, pfx);
    return pfx;
  } finally {
    try {
      execFileSync('rm', ['-f', out]);
    } catch {
      // nothing to remove
    }
  }
}

/** The minimum TLS version from `ssl.enabled.protocols` (or `ssl.protocol`). */
function minVersion(k: Readonly<Record<string, string>>): 'TLSv1.2' | 'TLSv1.3' | undefined {
  const key =
    k['ssl.enabled.protocols'] !== undefined
      ? 'ssl.enabled.protocols'
      : k['ssl.protocol'] !== undefined
        ? 'ssl.protocol'
        : undefined;
  if (!key) return undefined;
  const versions = k[key]!.split(',')
    .map((v) => v.trim().toUpperCase())
    .filter(Boolean)
    .map((v) => {
      const version = tlsVersions[v];
      if (!version)
        throw new SettingsError(
          `invalid value '${k[key]}' for '${key}'; accepted: TLSv1.2, TLSv1.3 (older versions are refused)`,
        );
      return version;
    });
  return versions.includes('TLSv1.2') ? 'TLSv1.2' : 'TLSv1.3';
}

/** The same from plain values (a worker thread receives these, not the Settings object). */
export function kafkaConnectionFrom(
  bootstrapServers: string,
  k: Readonly<Record<string, string>>,
  clientId: string,
): ConnectionSettings {
  const unsupported = unsupportedKafkaSecurityKeys(k);
  if (unsupported.length > 0) {
    throw new SettingsError(
      `unsupported Kafka client setting(s) ${unsupported.map((u) => `'${u}'`).join(', ')}; Weir applies: ${supportedKafkaSecurityKeys.join(', ')}`,
    );
  }
  const protocol = (k['security.protocol'] ?? 'PLAINTEXT').toUpperCase();
  if (!(protocols as readonly string[]).includes(protocol)) {
    throw new SettingsError(`invalid value '${protocol}' for 'security.protocol'; accepted: ${protocols.join(', ')}`);
  }
  const options: ConnectionSettings = {
    clientId,
    bootstrapBrokers: bootstrapServers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    connectTimeout: 10_000,
    requestTimeout: 30_000,
  };
  if (protocol.endsWith('SSL')) {
    const hostCheck = (k['ssl.endpoint.identification.algorithm'] ?? 'https').toLowerCase();
    if (hostCheck !== '' && hostCheck !== 'https') {
      throw new SettingsError(
        `invalid value '${hostCheck}' for 'ssl.endpoint.identification.algorithm'; accepted: https, or empty for no host name check`,
      );
    }
    const pemCa = readFile(k, 'ssl.ca.location')?.toString();
    const storeCa = trustStorePem(k);
    const ca = [pemCa, storeCa].filter((c): c is string => c !== undefined);
    const pfx = keyStorePfx(k);
    const version = minVersion(k);
    options.tls = {
      ...(ca.length ? { ca: ca.join('\n') } : {}),
      cert: readFile(k, 'ssl.certificate.location'),
      key: readFile(k, 'ssl.key.location'),
      ...(pfx ? { pfx, passphrase: k['ssl.keystore.password'] ?? '' } : { passphrase: k['ssl.key.password'] }),
      ...(version ? { minVersion: version } : {}),
      ...(k['ssl.cipher.suites']
        ? {
            ciphers: k['ssl.cipher.suites']
              .split(',')
              .map((c) => c.trim())
              .join(':'),
          }
        : {}),
      ...(hostCheck === '' ? { checkServerIdentity: () => undefined } : {}),
    };
  }
  if (protocol.startsWith('SASL')) {
    const mechanism = (k['sasl.mechanism'] ?? 'PLAIN').toUpperCase();
    if (!(mechanisms as readonly string[]).includes(mechanism)) {
      throw new SettingsError(`invalid value '${mechanism}' for 'sasl.mechanism'; accepted: ${mechanisms.join(', ')}`);
    }
    const jaas = k['sasl.jaas.config'] ?? '';
    const fromJaas = (name: string) => new RegExp(`${name}\\s*=\\s*"([^"]*)"`).exec(jaas)?.[1];
    const username = k['sasl.username'] ?? fromJaas('username');
    const password = k['sasl.password'] ?? fromJaas('password');
    if (username === undefined || password === undefined) {
      throw new SettingsError(
        `security.protocol=${protocol} needs sasl.username and sasl.password (or sasl.jaas.config with username="..." password="...")`,
      );
    }
    options.sasl = { mechanism: mechanism as (typeof mechanisms)[number], username, password };
  }
  return options;
}
