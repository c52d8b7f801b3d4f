import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSecureContext } from 'node:tls';
import { kafkaConnectionFrom } from '../../src/kafka/client-options.ts';

/**
 * JKS stores read with the JDK's keytool (real keytool, stores made by the test). The passwords
 * start with `-J`, which keytool takes for a JVM option when it is given as an argument.
 */
describe('Kafka client TLS from JKS stores', () => {
  let dir: string;
  const storePassword = '-Jstore-password';
  const trustPassword = '-Jtrust-password';
  const keytool = (...args: string[]) => execFileSync('keytool', args, { cwd: dir, stdio: 'pipe' });
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'weir-client-options-'));
    // generated with the password in a file, so the test's own calls are not tripped by the same `-J`
    const pw = (name: string, value: string) => {
      execFileSync('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', value, path.join(dir, name)]);
      return path.join(dir, name);
    };
    const storeFile = pw('store.pw', storePassword);
    const trustFile = pw('trust.pw', trustPassword);
    keytool(
      '-genkeypair',
      '-alias',
      'client',
      '-keyalg',
      'RSA',
      '-keysize',
      '2048',
      '-storetype',
      'JKS',
      '-keystore',
      'client.jks',
      '-storepass:file',
      storeFile,
      '-keypass:file',
      storeFile,
      '-dname',
      'CN=weir-client',
      '-validity',
      '30',
    );
    keytool(
      '-exportcert',
      '-rfc',
      '-alias',
      'client',
      '-keystore',
      'client.jks',
      '-storepass:file',
      storeFile,
      '-file',
      'client.pem',
    );
    keytool(
      '-importcert',
      '-noprompt',
      '-alias',
      'ca',
      '-file',
      'client.pem',
      '-storetype',
      'JKS',
      '-keystore',
      'trust.jks',
      '-storepass:file',
      trustFile,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a JKS key store is converted and a JKS trust store read, whatever their passwords start with', () => {
    const options = kafkaConnectionFrom(
      'localhost:9093',
      {
        'security.protocol': 'SSL',
        'ssl.keystore.location': path.join(dir, 'client.jks'),
        'ssl.keystore.type': 'JKS',
        'ssl.keystore.password': storePassword,
        'ssl.truststore.location': path.join(dir, 'trust.jks'),
        'ssl.truststore.type': 'JKS',
        'ssl.truststore.password': trustPassword,
      },
      'weir-test',
    );
    const tls = options.tls as { ca: string; pfx: Buffer; passphrase: string };
    assert.match(tls.ca, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(tls.passphrase, storePassword);
    // the converted PKCS12 opens with the key store's password and holds the key and its certificate
    createSecureContext({ pfx: tls.pfx, passphrase: tls.passphrase, ca: tls.ca });
  });

  test('a wrong trust store password is a settings error naming the key', () => {
    assert.throws(
      () =>
        kafkaConnectionFrom(
          'localhost:9093',
          {
            'security.protocol': 'SSL',
            'ssl.truststore.location': path.join(dir, 'trust.jks'),
            'ssl.truststore.type': 'JKS',
            'ssl.truststore.password': '-Jwrong-password',
          },
          'weir-test',
        ),
      /'ssl\.truststore\.location': keytool could not read it \(a wrong password or type\?\)/,
    );
  });
});
