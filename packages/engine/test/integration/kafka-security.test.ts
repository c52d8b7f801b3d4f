import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { EmbeddedBroker } from '../../src/broker/embedded-broker.ts';
import { freePort } from '../../src/broker/ports.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { WeirNode } from '../../src/node/node.ts';
import { isolatedEngine, post, waitFor } from '@weir/test-helpers/engine';
import { request } from '@weir/test-helpers/https-client';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';
import { readUntilDone } from '@weir/test-helpers/topics';

const run = promisify(execFile);

/** A CA, a broker certificate for 127.0.0.1/localhost and a client certificate, made with openssl and keytool. */
async function makeCertificates(dir: string): Promise<void> {
  const o = (...args: string[]) => run('openssl', args, { cwd: dir });
  await o(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=weir-test-ca',
  );
  for (const [name, san] of [
    ['broker', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ['client', 'subjectAltName=DNS:weir-client'],
  ] as const) {
    await o(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name === 'broker' ? 'localhost' : 'weir-client'}`,
    );
    writeFileSync(path.join(dir, `${name}.ext`), `${san}\n`);
    await o(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
    await o(
      'pkcs12',
      '-export',
      '-in',
      `${name}.pem`,
      '-inkey',
      `${name}.key`,
      '-certfile',
      'ca.pem',
      '-out',
      `${name}.p12`,
      '-passout',
      `pass:${name}-store-pw`,
      '-name',
      name,
    );
  }
  for (const type of ['JKS', 'PKCS12']) {
    await run(
      'keytool',
      [
        '-importcert',
        '-noprompt',
        '-alias',
        'ca',
        '-file',
        'ca.pem',
        '-keystore',
        `truststore.${type.toLowerCase()}`,
        '-storetype',
        type,
        '-storepass',
        'trust-store-pw',
      ],
      { cwd: dir },
    );
  }
}

describe('secured Kafka: SASL_SSL (SCRAM-SHA-512) and mutual TLS', () => {
  let dir: string;
  let broker: EmbeddedBroker;
  let saslPort: number;
  let mtlsPort: number;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'weir-test-secured-'));
    await makeCertificates(dir);
    saslPort = await freePort();
    mtlsPort = await freePort();
    const f = (name: string) => path.join(dir, name);
    broker = new EmbeddedBroker({
      dir: f('broker'),
      internalPartitions: 1,
      securedListeners: [
        { name: 'SECURE', protocol: 'SASL_SSL', port: saslPort },
        { name: 'MTLS', protocol: 'SSL', port: mtlsPort },
      ],
      scramUsers: [{ mechanism: 'SCRAM-SHA-512', username: 'weir', password: 'weir-scram-pw' }],
      extraProperties: {
        'ssl.keystore.type': 'PKCS12',
        'ssl.keystore.location': f('broker.p12'),
        'ssl.keystore.password': 'broker-store-pw',
        'ssl.key.password': 'broker-store-pw',
        'ssl.truststore.type': 'JKS',
        'ssl.truststore.location': f('truststore.jks'),
        'ssl.truststore.password': 'trust-store-pw',
        'listener.name.mtls.ssl.client.auth': 'required',
        'sasl.enabled.mechanisms': 'SCRAM-SHA-512',
        'listener.name.secure.sasl.enabled.mechanisms': 'SCRAM-SHA-512',
        'listener.name.secure.scram-sha-512.sasl.jaas.config':
          'org.apache.kafka.common.security.scram.ScramLoginModule required;',
      },
    });
    await broker.start();
  });
  after(async () => {
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A node whose properties file holds the Kafka security settings, as a user writes it. */
  async function secureNode(name: string, security: Record<string, string>, overrides: Record<string, string>) {
    const home = mkdtempSync(path.join(os.tmpdir(), `weir-test-${name}-`));
    const file = path.join(home, 'weir.properties');
    writeFileSync(
      file,
      Object.entries(security)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
    const settings = loadSettings(file, {}).with({
      'weir.home': home,
      'weir.broker.embedded': 'false',
      'server.port': '0',
      'server.address': '127.0.0.1',
      'weir.log.level': 'silent',
      'num.stream.threads': '1',
      'weir.metrics.enabled': 'false',
      'weir.auth.password-min-length': '6',
      ...overrides,
    });
    const node = await WeirNode.start(settings);
    return {
      node,
      home,
      call: (method: string, p: string, options?: Parameters<typeof request>[3]) =>
        request(node.url, method, p, options),
    };
  }

  /** The topic API and the stream engine through the secured listener; kcat reads the output with the same credentials. */
  async function exercise(n: Awaited<ReturnType<typeof secureNode>>, kcat: string[] | undefined): Promise<void> {
    const init = await n.call('POST', '/api/init', { body: { username: 'admin', password: 'admin-pw' } });
    assert.equal(init.status, 201);
    const token = (
      (await n.call('POST', '/api/login', { body: { username: 'admin', password: 'admin-pw' } })).body as {
        access_token: string;
      }
    ).access_token;
    const input = `t-sec-in-${path.basename(n.home).slice(-6)}`;
    const output = `t-sec-out-${path.basename(n.home).slice(-6)}`;
    for (const topic of [input, output]) {
      const res = await n.call('POST', '/api/topics', {
        token,
        body: { name: topic, numberOfPartitions: 1, replicationFactor: 1 },
      });
      assert.equal(res.status, 201, res.text);
    }
    assert.ok(((await n.call('GET', '/api/topics', { token })).body as string[]).includes(input));
    await post(n as never, token, '/api/tasks', {
      id: 1,
      name: 'kv',
      description: '',
      function: 'PARSE_KV',
      definition: {},
    });
    await post(n as never, token, '/api/pipelines', { id: 1, name: 'p', description: '', tasks: [1] });
    await post(n as never, token, '/api/topologies', {
      id: 1,
      name: 's',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    const produced = await n.call('POST', `/api/topics/${input}/produce`, {
      token,
      body: { messages: [{ value: 'user=alice action=login' }] },
    });
    assert.equal(produced.status, 201, produced.text);
    if (kcat) await readWithKcat(n, output, kcat);
    assert.equal(
      (
        await n.call('POST', `/api/topics/${output}/consume`, {
          token,
          body: { maxEvents: 1, offset: 'earliest', maxTimeoutSeconds: 60 },
        })
      ).status,
      201,
    );
    const read = await readUntilDone(n as never, token, output, 90_000);
    assert.equal(read.status, 'COMPLETED');
    assert.equal((JSON.parse(read.messages[0]!.value as string) as { user: string; action: string }).user, 'alice');
    assert.equal((await n.call('GET', '/health/ready')).status, 200);
  }

  async function readWithKcat(
    n: Awaited<ReturnType<typeof secureNode>>,
    output: string,
    kcat: string[],
  ): Promise<void> {
    let lastKcatError = '';
    const lines = await waitFor(
      'the engine output, read by kcat',
      async () => {
        const servers = n.node.context.settings.get('bootstrap.servers').replace('localhost', '127.0.0.1');
        // A failed attempt (e.g. the first metadata request) is tried again until the deadline.
        const { stdout } = await run('kcat', [
          '-C',
          '-b',
          servers,
          '-t',
          output,
          '-o',
          'beginning',
          '-e',
          '-q',
          ...kcat,
        ]).catch((err: Error) => {
          lastKcatError = err.message;
          return { stdout: '' };
        });
        return stdout.trim() ? stdout.trim().split('\n') : undefined;
      },
      60_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; kcat: ${lastKcatError}`);
    });
    assert.deepEqual(JSON.parse(lines[0]!).user, 'alice');
  }

  test('SASL_SSL with SCRAM-SHA-512 and a JKS trust store (kafka config store): topics, engine, store', async () => {
    const f = (name: string) => path.join(dir, name);
    const n = await secureNode(
      'sasl',
      {
        'bootstrap.servers': `localhost:${saslPort}`,
        'security.protocol': 'SASL_SSL',
        'sasl.mechanism': 'SCRAM-SHA-512',
        'sasl.jaas.config':
          'org.apache.kafka.common.security.scram.ScramLoginModule required username="weir" password="weir-scram-pw";',
        'ssl.truststore.location': f('truststore.jks'),
        'ssl.truststore.password': 'trust-store-pw',
        'ssl.truststore.type': 'JKS',
        'ssl.endpoint.identification.algorithm': 'https',
        'ssl.enabled.protocols': 'TLSv1.3,TLSv1.2',
      },
      { 'weir.config.store': 'kafka', 'weir.topic.prefix': uniqueTopicPrefix('sasl'), ...isolatedEngine('sasl') },
    );
    try {
      // kcat 1.7.1 (librdkafka 2.0.2) on this machine fails against this SASL_SSL listener with "Broker
      // transport failure" (not understood yet); the output is read through the topic API instead.
      // The mutual-TLS test below checks its output with kcat.
      await exercise(n, undefined);
      assert.equal(statSync(path.join(n.home, 'var', 'tls', 'weir.p12')).mode & 0o777, 0o600);
      assert.equal(statSync(path.join(n.home, 'var', 'tls', 'weir.p12.password')).mode & 0o777, 0o600);
    } finally {
      await n.node.stop();
      rmSync(n.home, { recursive: true, force: true });
    }
  });

  test('mutual TLS with a PKCS12 key store and trust store: topics, engine, local store (0600)', async () => {
    const f = (name: string) => path.join(dir, name);
    const n = await secureNode(
      'mtls',
      {
        'bootstrap.servers': `127.0.0.1:${mtlsPort}`,
        'security.protocol': 'SSL',
        'ssl.keystore.location': f('client.p12'),
        'ssl.keystore.password': 'client-store-pw',
        'ssl.keystore.type': 'PKCS12',
        'ssl.key.password': 'client-store-pw',
        'ssl.truststore.location': f('truststore.pkcs12'),
        'ssl.truststore.password': 'trust-store-pw',
        'ssl.truststore.type': 'PKCS12',
      },
      isolatedEngine('mtls'),
    );
    try {
      await exercise(n, [
        '-X',
        'security.protocol=SSL',
        '-X',
        `ssl.ca.location=${f('ca.pem')}`,
        '-X',
        `ssl.certificate.location=${f('client.pem')}`,
        '-X',
        `ssl.key.location=${f('client.key')}`,
      ]);
      assert.equal(statSync(path.join(n.home, 'var', 'config', 'weir.db')).mode & 0o777, 0o600);
    } finally {
      await n.node.stop();
      rmSync(n.home, { recursive: true, force: true });
    }
  });

  test('refused credentials and certificates: the node is not ready and says why', async () => {
    const f = (name: string) => path.join(dir, name);
    const cases: Record<string, string>[] = [
      {
        'bootstrap.servers': `localhost:${saslPort}`,
        'security.protocol': 'SASL_SSL',
        'sasl.mechanism': 'SCRAM-SHA-512',
        'sasl.username': 'weir',
        'sasl.password': 'wrong',
        'ssl.ca.location': f('ca.pem'),
      },
      { 'bootstrap.servers': `127.0.0.1:${mtlsPort}`, 'security.protocol': 'SSL', 'ssl.ca.location': f('ca.pem') },
    ];
    for (const security of cases) {
      const n = await secureNode('refused', security, { 'weir.engine.autostart': 'false' });
      try {
        const ready = await n.call('GET', '/health/ready');
        assert.equal(ready.status, 503, JSON.stringify(security));
        assert.match((ready.body as { checks: { kafka: string } }).checks.kafka, /^DOWN: /);
      } finally {
        await n.node.stop();
        rmSync(n.home, { recursive: true, force: true });
      }
    }
  });

  test('an unknown ssl.* or sasl.* key is refused by name, not ignored', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'weir-test-unknown-'));
    try {
      const file = path.join(home, 'weir.properties');
      writeFileSync(
        file,
        `bootstrap.servers=127.0.0.1:${mtlsPort}\nsecurity.protocol=SSL\nssl.keymanager.algorithm=SunX509\n`,
      );
      const settings = loadSettings(file, {}).with({
        'weir.home': home,
        'weir.broker.embedded': 'false',
        'server.port': '0',
        'weir.log.level': 'silent',
      });
      await assert.rejects(
        WeirNode.start(settings),
        /unsupported Kafka client setting\(s\) 'ssl\.keymanager\.algorithm'/,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
