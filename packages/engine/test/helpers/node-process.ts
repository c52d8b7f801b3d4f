import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/broker/ports.ts';
import { waitFor } from '@weir/test-helpers/engine';
import { request, type HttpResponse, type RequestOptions } from '@weir/test-helpers/https-client';
import { testBootstrap } from '@weir/test-helpers/test-node';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * A Weir node in its own process, started as users start it (`main.ts --config <file>`), so that
 * `kill()` is a real SIGKILL of the node. Its home is a temporary folder, its API on a free port.
 */
export class NodeProcess {
  readonly home = mkdtempSync(path.join(os.tmpdir(), 'weir-node-'));
  readonly config = path.join(this.home, 'weir.properties');
  readonly uuid = randomUUID();
  child: ChildProcess | undefined;
  port = 0;
  output = '';

  /** Writes the node's settings (defaults: the test broker, 2 threads, warn logging, fixed uuid). */
  async configure(settings: Record<string, string>): Promise<void> {
    this.port = await freePort();
    const all = {
      'weir.home': this.home,
      'weir.uuid': this.uuid,
      'bootstrap.servers': testBootstrap(),
      'weir.broker.embedded': 'false',
      'server.port': String(this.port),
      'server.address': '127.0.0.1',
      'weir.metrics.port': '0',
      'num.stream.threads': '2',
      'weir.log.level': process.env.WEIR_TEST_NODE_LOG_LEVEL ?? 'warn',
      // 'admin-pw' predates the password policy; the fault tests poll faster than the default rate limit.
      'weir.auth.password-min-length': '6',
      'weir.http.rate-limit-per-minute': '1000000',
      // No notify consumer group beside the stream's (the fault tests watch the stream's group).
      'weir.notify.enabled': 'false',
      ...settings,
    };
    writeFileSync(
      this.config,
      Object.entries(all)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
  }

  /** Starts the process and waits until its API answers. */
  async start(): Promise<void> {
    this.child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'packages/engine/src/main.ts', '--config', this.config],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // WEIR_TEST_NODE_LOGS=<dir>: every line of every node process also goes to <dir>/node-<uuid>.log (diagnosing a fault run)
    const logDir = process.env.WEIR_TEST_NODE_LOGS;
    if (logDir) mkdirSync(logDir, { recursive: true });
    const keep = (c: Buffer) => {
      this.output = (this.output + c.toString()).slice(-20_000);
      if (logDir) appendFileSync(path.join(logDir, `node-${this.uuid}.log`), c);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    const child = this.child;
    await waitFor(
      `the node process to answer (output: ${this.output})`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the node process exited (${child.exitCode}):\n${this.output}`);
        const res = await request(this.url, 'GET', '/api/init').catch(() => undefined);
        return res?.status === 200;
      },
      90_000,
    );
  }

  get url(): string {
    return `https://localhost:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  call(method: string, p: string, options?: RequestOptions): Promise<HttpResponse> {
    return request(this.url, method, p, options);
  }

  /** SIGKILL: the node gets no chance to commit, leave its group or flush anything. */
  async kill(): Promise<void> {
    const child = this.child!;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM (a clean stop) and removes the home. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.home, { recursive: true, force: true });
  }

  /** Waits until every stream worker of the node is RUNNING. */
  async waitRunning(token: string, timeoutMs = 90_000): Promise<void> {
    await waitFor(
      `the engine of ${this.url} to run`,
      async () => {
        const res = await this.call('GET', '/api/engine/state', { token });
        const states = (res.body as { states?: string[] }).states ?? [];
        return states.length > 0 && states.every((s) => s === 'RUNNING');
      },
      timeoutMs,
    );
  }
}

/** Inits the API (admin/admin-pw) on one node and returns an admin token. */
export async function initAdmin(node: NodeProcess): Promise<string> {
  const init = await node.call('POST', '/api/init', {
    body: { username: 'admin', password: 'admin-pw', name: 'Admin', email: 'admin@example.com' },
  });
  if (init.status !== 201) throw new Error(`init failed: ${init.status} ${init.text}`);
  return login(node);
}

export async function login(node: NodeProcess): Promise<string> {
  const res = await waitFor(
    `a login on ${node.url}`,
    async () => {
      const r = await node.call('POST', '/api/login', { body: { username: 'admin', password: 'admin-pw' } });
      return r.status === 200 ? r : undefined;
    },
    30_000,
  );
  return (res.body as { access_token: string }).access_token;
}
