import { readFileSync } from 'node:fs';
import type { BaseOptions } from '@platformatic/kafka';
import type { Settings } from '../config/settings.ts';
import { SettingsError } from '../config/settings.ts';

type ConnectionSettings = Pick<BaseOptions, 'bootstrapBrokers' | 'clientId' | 'tls' | 'sasl' | 'connectTimeout' | 'requestTimeout'>;

const mechanisms = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

/**
 * Connection options of every Kafka client of a node: `bootstrap.servers` plus the passed-through
 * Kafka security settings (docs/configuration.md, "Kafka client security"):
 * `security.protocol` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL), `ssl.ca.location`,
 * `ssl.certificate.location`, `ssl.key.location`, `ssl.key.password`, `ssl.keystore.location` +
 * `ssl.keystore.password` (PKCS12), `ssl.endpoint.identification.algorithm` (empty: no host check),
 * `sasl.mechanism` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with `sasl.username`/`sasl.password` or a
 * `sasl.jaas.config` holding username="..." password="...".
 */
export function kafkaConnection(settings: Settings, clientId: string): ConnectionSettings {
  return kafkaConnectionFrom(settings.get('bootstrap.servers'), settings.kafkaClient, clientId);
}

/** The same from plain values (a worker thread receives these, not the Settings object). */
export function kafkaConnectionFrom(bootstrapServers: string, k: Readonly<Record<string, string>>, clientId: string): ConnectionSettings {
  const protocol = (k['security.protocol'] ?? 'PLAINTEXT').toUpperCase();
  if (!['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'].includes(protocol)) {
    throw new SettingsError(`invalid value '${protocol}' for 'security.protocol'; accepted: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL`);
  }
  const options: ConnectionSettings = {
    clientId,
    bootstrapBrokers: bootstrapServers.split(',').map((s) => s.trim()).filter(Boolean),
    connectTimeout: 10_000,
    requestTimeout: 30_000,
  };
  if (protocol.endsWith('SSL')) {
    const read = (key: string) => {
      const file = k[key];
      if (!file) return undefined;
      try {
        return readFileSync(file);
      } catch (err) {
        throw new SettingsError(`'${key}': cannot read ${file}: ${(err as Error).message}`);
      }
    };
    const noHostCheck = k['ssl.endpoint.identification.algorithm'] === '';
    options.tls = {
      ca: read('ssl.ca.location'),
      cert: read('ssl.certificate.location'),
      key: read('ssl.key.location'),
      passphrase: k['ssl.key.password'] ?? k['ssl.keystore.password'],
      pfx: read('ssl.keystore.location'),
      ...(noHostCheck ? { checkServerIdentity: () => undefined } : {}),
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
      throw new SettingsError(`security.protocol=${protocol} needs sasl.username and sasl.password (or sasl.jaas.config with username="..." password="...")`);
    }
    options.sasl = { mechanism: mechanism as (typeof mechanisms)[number], username, password };
  }
  return options;
}
