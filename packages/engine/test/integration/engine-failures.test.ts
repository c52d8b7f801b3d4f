import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { EmbeddedBroker } from '../../src/broker/embedded-broker.ts';
import { freePort } from '../../src/broker/ports.ts';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { request } from '@weir/test-helpers/https-client';
import { consume, consumeUntil, createTopics, produce } from '@weir/test-helpers/kafka';
import { kcatValues } from '@weir/test-helpers/kcat';
import { startTestNode, testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';

const root = path.resolve(import.meta.dirname, '../../../..');
const events = 100_000;

/** A node in its own process (so that it can be killed with SIGKILL), on the shared test broker. */
class NodeProcess {
  readonly home = mkdtempSync(path.join(os.tmpdir(), 'weir-failure-'));
  readonly config = path.join(this.home, 'weir.properties');
  child: ChildProcess | undefined;
  port = 0;
  output = '';

  async write(settings: Record<string, string>): Promise<void> {
    this.port = await freePort();
    const all = {
      'weir.home': this.home,
      'bootstrap.servers': testBootstrap(),
      'weir.broker.embedded': 'false',
      'server.port': String(this.port),
      'weir.metrics.port': '0',
      'num.stream.threads': '2',
      'weir.log.level': 'warn',
      // The fixture's password 'admin-pw' predates the password policy (docs/security.md).
      'weir.auth.password-min-length': '6',
      ...settings,
    };
    writeFileSync(
      this.config,
      Object.entries(all)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
  }

  async start(): Promise<void> {
    this.child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'packages/engine/src/main.ts', '--config', this.config],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child.stdout!.on('data', (c: Buffer) => (this.output = (this.output + c.toString()).slice(-20_000)));
    this.child.stderr!.on('data', (c: Buffer) => (this.output = (this.output + c.toString()).slice(-20_000)));
    await waitFor(
      `the node process to answer (output: ${this.output})`,
      async () => {
        const res = await request(this.url, 'GET', '/api/init').catch(() => undefined);
        return res?.status === 200;
      },
      60_000,
    );
  }

  get url(): string {
    return `https://localhost:${this.port}`;
  }

  async kill(): Promise<void> {
    const child = this.child!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

async function configure(url: string, token: string, input: string, output: string): Promise<void> {
  const calls: [string, unknown][] = [
    ['/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: { keepRaw: false } }],
    ['/api/pipelines', { id: 1, name: 'parse', description: '', tasks: [1] }],
    [
      '/api/topologies',
      {
        id: 1,
        name: 'flow',
        description: '',
        pipelines: [1],
        enabled: true,
        group: 'default',
        input: { name: input },
        output: [{ name: output }],
      },
    ],
  ];
  for (const [p, body] of calls) {
    const res = await request(url, 'POST', p, { token, body });
    assert.equal(res.status, 201, res.text);
  }
}

async function adminToken(url: string): Promise<string> {
  await request(url, 'POST', '/api/init', {
    body: { username: 'admin', password: 'admin-pw', name: 'A', email: 'a@x' },
  });
  const res = await request(url, 'POST', '/api/login', { body: { username: 'admin', password: 'admin-pw' } });
  return (res.body as { access_token: string }).access_token;
}

/** Every sequence number seen on the output, and how many records carried a number already seen. */
function tally(values: readonly (Buffer | string)[]): { distinct: number; duplicates: number } {
  const seen = new Set<number>();
  let duplicates = 0;
  for (const v of values) {
    const seq = (JSON.parse(v.toString()) as { seq: number }).seq;
    if (seen.has(seq)) duplicates++;
    else seen.add(seq);
  }
  return { distinct: seen.size, duplicates };
}

async function killWhileFlowing(guarantee: 'at_least_once' | 'exactly_once_v2') {
  const node = new NodeProcess();
  const input = uniqueTopic('fail-in');
  const output = uniqueTopic('fail-out');
  try {
    await node.write({
      ...isolatedEngine(`kill-${guarantee === 'at_least_once' ? 'alos' : 'eos'}`),
      'processing.guarantee': guarantee,
    });
    await node.start();
    const token = await adminToken(node.url);
    await createTopics([input], 4);
    await createTopics([output], 2);
    await configure(node.url, token, input, output);
    const producing = produce(
      input,
      Array.from({ length: events }, (_, i) => `seq=${i} user=u${i % 97} action=login`),
      (i) => `k${i % 1000}`,
    );
    // Kill the node once part of the stream is through.
    await waitFor('some output', async () => (await consume(output, 5000, 3000)).length >= 5000, 60_000);
    await node.kill();
    await producing;
    await node.start();
    const committedOnly = guarantee === 'exactly_once_v2';
    const all = await consumeUntil(
      output,
      (records) => tally(records.map((r) => r.value)).distinct >= events,
      180_000,
      committedOnly,
    );
    return { counts: tally(all.map((r) => r.value)), total: all.length, log: node.output };
  } finally {
    await node.stop();
  }
}

describe('failures', { concurrency: false }, () => {
  test(
    'kill -9 while 100,000 events flow (at-least-once): every event reaches the output after a restart',
    { timeout: 300_000 },
    async (t) => {
      const { counts, total, log } = await killWhileFlowing('at_least_once');
      assert.equal(counts.distinct, events, `node log:\n${log}`);
      t.diagnostic(
        `at-least-once: ${total} output records for ${events} events, ${counts.duplicates} duplicates after kill -9`,
      );
    },
  );

  test(
    'kill -9 while 100,000 events flow (exactly_once_v2): the committed output has each event exactly once',
    { timeout: 300_000 },
    async (t) => {
      const { counts, total, log } = await killWhileFlowing('exactly_once_v2');
      assert.equal(counts.distinct, events, `node log:\n${log}`);
      assert.equal(counts.duplicates, 0);
      assert.equal(total, events);
      t.diagnostic(`exactly_once_v2: ${total} committed output records for ${events} events`);
    },
  );

  test(
    'the broker restarted mid-stream: the engine recovers by itself and nothing is lost',
    { timeout: 300_000 },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-restart-broker-'));
      const broker = new EmbeddedBroker({ dir, internalPartitions: 1 });
      const bootstrap = await broker.start();
      const n = await startTestNode({ ...isolatedEngine('broker-restart'), 'bootstrap.servers': bootstrap });
      try {
        const token = await n.initAdmin();
        const input = uniqueTopic('restart-in');
        const output = uniqueTopic('restart-out');
        const { Admin, Producer, ProduceAcks } = await import('@platformatic/kafka');
        const admin = new Admin({ clientId: 'restart-admin', bootstrapBrokers: [bootstrap] });
        await admin.createTopics({ topics: [input, output], partitions: 2, replicas: 1 });
        await admin.close();
        await configure(n.url, token, input, output);
        const send = async (from: number, count: number) => {
          const producer = new Producer({ clientId: 'restart-producer', bootstrapBrokers: [bootstrap] });
          await producer.send({
            messages: Array.from({ length: count }, (_, i) => ({
              topic: input,
              value: Buffer.from(`seq=${from + i}`),
            })),
            acks: ProduceAcks.ALL,
          });
          await producer.close();
        };
        await send(0, 5000);
        // The output is read by kcat, an independent client without a consumer group (no join delay).
        let seen = 0;
        const distinctOut = async () =>
          (seen = tally(await kcatValues(output, false, bootstrap).catch(() => [] as string[])).distinct);
        await waitFor('the first half', async () => (await distinctOut()) >= 5000, 90_000).catch((e: Error) => {
          throw new Error(`${e.message}: ${seen} of 5000 distinct records in ${output}`);
        });
        await broker.stop();
        await new Promise((r) => setTimeout(r, 3000));
        await broker.start();
        await send(5000, 5000);
        await waitFor(
          'both halves after the broker restart',
          async () => (await distinctOut()) >= 10_000,
          120_000,
        ).catch((e: Error) => {
          throw new Error(`${e.message}: ${seen} of 10000 distinct records in ${output}`);
        });
      } finally {
        await n.stop();
        await broker.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
