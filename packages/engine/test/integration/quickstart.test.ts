import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../src/broker/ports.ts';
import { request } from '@weir/test-helpers/https-client';

const root = path.resolve(import.meta.dirname, '../../../..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The java (broker) and node (main.ts) processes started for this config. */
async function processes(home: string, config: string): Promise<{ java: number[]; node: number[] }> {
  const list = await new Promise<string>((resolve) => {
    const ps = spawn('ps', ['-eo', 'pid,ppid,args']);
    let out = '';
    ps.stdout.on('data', (c: Buffer) => (out += c.toString()));
    ps.once('exit', () => resolve(out));
  });
  const rows = list
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((r) => r.length > 2);
  return {
    java: rows
      .filter((r) => r[2]!.endsWith('java') && r.includes('kafka.Kafka') && r.join(' ').includes(home))
      .map((r) => Number(r[0])),
    node: rows
      .filter((r) => r[2]!.endsWith('node') && r.join(' ').includes('main.ts') && r.includes(config))
      .map((r) => Number(r[0])),
  };
}

/** `npm start` as a user runs it, in its own process group so that a failing test can kill it all. */
function npmStart(config: string): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  // The UI server on a free port (port 0), its state beside the node's.
  const uiConfig = path.join(path.dirname(config), 'ui.json');
  writeFileSync(uiConfig, JSON.stringify({ server: { host: '127.0.0.1', port: 0 }, weir: { home: 'state' } }));
  const child = spawn('npm', ['start', '--', '--config', config], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, WEIR_UI_CONFIG: uiConfig },
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function answers(port: number) {
  return waitFor(
    'the API',
    async () => {
      const r = await request(`https://localhost:${port}`, 'GET', '/api/init');
      return r.status === 200 ? r : undefined;
    },
    90_000,
  );
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

async function quickstartHome(): Promise<{ home: string; config: string; port: number; kafkaPort: number }> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'weir-quickstart-'));
  const port = await freePort();
  // A free port stands for the quick start's localhost:9092 (other brokers may hold 9092 on this machine).
  const kafkaPort = await freePort();
  const config = path.join(home, 'weir.properties');
  writeFileSync(
    config,
    `weir.home=state\nbootstrap.servers=localhost:${kafkaPort}\nweir.broker.embedded=true\nserver.port=${port}\nnum.stream.threads=1\nweir.metrics.port=0\nweir.log.level=warn\n`,
  );
  return { home, config, port, kafkaPort };
}

/**
 * The quick start as a user runs it: `npm start` with its own embedded broker (a second real Kafka
 * process), answering /api/init over HTTPS, and leaving no java or node process behind on SIGTERM.
 */
test('npm start runs an embedded broker and the API; SIGTERM stops both', { timeout: 150_000 }, async () => {
  const { home, config, port, kafkaPort: bootstrapPort } = await quickstartHome();
  const run = npmStart(config);
  try {
    const res = await answers(port);
    // The embedded broker listens where bootstrap.servers says, and the start says where.
    assert.match(run.output(), new RegExp(`starting Apache Kafka on 127\\.0\\.0\\.1:${bootstrapPort}\\b`));
    assert.match(
      run.output(),
      new RegExp(`\\[weir\\] Kafka \\(embedded broker\\) at 127\\.0\\.0\\.1:${bootstrapPort}\\b`),
    );
    const metadata = await new Promise<string>((resolve, reject) => {
      execFile('kcat', ['-b', `localhost:${bootstrapPort}`, '-L', '-m', '10'], { timeout: 20_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      );
    });
    assert.match(
      metadata,
      new RegExp(`1 brokers:\\s+broker 1 at 127\\.0\\.0\\.1:${bootstrapPort}`),
      'a Kafka tool reaches it at bootstrap.servers as configured',
    );
    assert.deepEqual(res.body, { initialized: false });
    assert.equal(res.headers['strict-transport-security'], 'max-age=31536000 ; includeSubDomains');
    // The web UI is served too, and its /api reaches this node.
    const uiUrl = await waitFor(
      'the UI URL',
      async () => /Weir Console on (https:\/\/localhost:\d+)/.exec(run.output())?.[1],
      60_000,
    );
    const page = await request(uiUrl, 'GET', '/');
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id="root"><\/div>/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.deepEqual((await request(uiUrl, 'GET', '/api/init')).body, { initialized: false });
    assert.match(run.output(), /starting Apache Kafka on 127\.0\.0\.1:\d+/);
    const kafkaPort = Number(/starting Apache Kafka on 127\.0\.0\.1:(\d+)/.exec(run.output())![1]);
    const brokerState = JSON.parse(readFileSync(path.join(home, 'state', 'var', 'kafka', 'broker.json'), 'utf8'));
    assert.equal(brokerState.brokerPort, kafkaPort);
    const pids = await waitFor(
      'the process tree',
      async () => {
        const p = await processes(home, config);
        return p.java.length === 1 && p.node.length === 1 ? [...p.java, ...p.node] : undefined;
      },
      10_000,
    );
    run.child.kill('SIGTERM');
    await run.exited;
    await waitFor('every process to end', async () => (pids.some(alive) ? undefined : true), 30_000);
  } finally {
    killGroup(run.child);
    rmSync(home, { recursive: true, force: true });
  }
});

test(
  'after the node is killed with SIGKILL, the next start stops the orphaned broker and starts cleanly',
  { timeout: 200_000 },
  async () => {
    const { home, config, port } = await quickstartHome();
    const first = npmStart(config);
    let second: ReturnType<typeof npmStart> | undefined;
    try {
      await answers(port);
      const before = await waitFor(
        'the process tree',
        async () => {
          const p = await processes(home, config);
          return p.java.length === 1 && p.node.length === 1 ? p : undefined;
        },
        10_000,
      );
      process.kill(before.node[0]!, 'SIGKILL');
      await first.exited;
      assert.ok(alive(before.java[0]!), 'the broker outlives a node killed with SIGKILL');
      second = npmStart(config);
      const res = await answers(port);
      assert.equal(res.status, 200);
      assert.match(
        second.output(),
        new RegExp(`stopping the embedded Kafka broker left running by an earlier node \\(pid ${before.java[0]}\\)`),
      );
      assert.ok(!alive(before.java[0]!), 'the orphaned broker was stopped');
      const after = await processes(home, config);
      assert.equal(after.java.length, 1);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      killGroup(first.child);
      if (second) killGroup(second.child);
      const left = await processes(home, config);
      for (const pid of left.java) if (alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(home, { recursive: true, force: true });
    }
  },
);
