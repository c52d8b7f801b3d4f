import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../src/broker/ports.ts';
import { request } from '../helpers/https-client.ts';

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

/**
 * The quick start as a user runs it: `npm start` with its own embedded broker (a second real Kafka
 * process), answering /api/init over HTTPS, and leaving no java or node process behind on SIGTERM.
 */
test('npm start runs an embedded broker and the API; SIGTERM stops both', { timeout: 150_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'weir-quickstart-'));
  const port = await freePort();
  const config = path.join(home, 'weir.properties');
  writeFileSync(config, `weir.home=state\nweir.broker.embedded=true\nserver.port=${port}\nnum.stream.threads=1\nweir.metrics.port=0\nweir.log.level=warn\n`);
  const root = path.resolve(import.meta.dirname, '../../../..');
  // Its own process group, so that a failing test can still kill everything it started.
  const child = spawn('npm', ['start', '--', '--config', config], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const res = await waitFor('the API', async () => {
      const r = await request(`https://localhost:${port}`, 'GET', '/api/init');
      return r.status === 200 ? r : undefined;
    }, 90_000);
    assert.deepEqual(res.body, { initialized: false });
    assert.equal(res.headers['strict-transport-security'], 'max-age=31536000 ; includeSubDomains');
    assert.match(output, /starting Apache Kafka on 127\.0\.0\.1:\d+/);
    const kafkaPort = Number(/starting Apache Kafka on 127\.0\.0\.1:(\d+)/.exec(output)![1]);
    const brokerState = JSON.parse(readFileSync(path.join(home, 'state', 'var', 'kafka', 'broker.json'), 'utf8'));
    assert.equal(brokerState.brokerPort, kafkaPort);
    const pids = await waitFor('the process tree', async () => {
      const list = await new Promise<string>((resolve) => {
        const ps = spawn('ps', ['-eo', 'pid,ppid,args']);
        let out = '';
        ps.stdout.on('data', (c: Buffer) => (out += c.toString()));
        ps.once('exit', () => resolve(out));
      });
      const rows = list.split('\n').map((l) => l.trim().split(/\s+/)).filter((r) => r.length > 2);
      const java = rows.filter((r) => r[2]!.endsWith('java') && r.includes('kafka.Kafka') && r.join(' ').includes(home)).map((r) => Number(r[0]));
      const node = rows.filter((r) => r[2]!.endsWith('node') && r.join(' ').includes('main.ts') && r.includes(config)).map((r) => Number(r[0]));
      return java.length === 1 && node.length === 1 ? [...java, ...node] : undefined;
    }, 10_000);
    child.kill('SIGTERM');
    await exited;
    await waitFor('every process to end', async () => (pids.some(alive) ? undefined : true), 30_000);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    rmSync(home, { recursive: true, force: true });
  }
});
