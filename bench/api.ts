/**
 * bench/api: `GET /api/rules` with 1,000 rules stored, 100 connections, 10 s (autocannon), against
 * a real Weir node (local store, HTTPS) in a process of its own, and in the same run against the
 * ceiling: a plain Node HTTPS server in its own process handing out the same bytes with the same
 * key store. Three scenarios: the ceiling; Weir answering 200 with the whole collection; Weir
 * answering 304 to `If-None-Match` (a UI polling with the ETag it holds). Prints requests/s, p50,
 * p99 and max latency, the CPU-seconds of the server process, and Weir / ceiling.
 * Run: `node_modules/.bin/node bench/api.ts [seconds] [rules]` (10, 1000).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { EmbeddedBroker } from '@weir/engine';
import { call, initAdmin, signInAdmin, startServer, stopServer, type Server } from './api-node.ts';
import { cpuSeconds } from './engine-procs.ts';
import { benchRules, pdlRules } from './engine-workload.ts';

const seconds = Number(process.argv[2] ?? 10);
const ruleCount = Number(process.argv[3] ?? 1000);
const connections = 100;

interface Load {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly statuses: string;
  readonly cpu: number;
}

async function load(url: string, pid: number, headers: Record<string, string>): Promise<Load> {
  const cpu0 = cpuSeconds(pid);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpu = cpuSeconds(pid) - cpu0;
  const statuses = `2xx ${result['2xx']}, 3xx ${result['3xx']}, 4xx ${result['4xx']}, 5xx ${result['5xx']}, errors ${result.errors}, timeouts ${result.timeouts}`;
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    statuses,
    cpu,
  };
}

const show = (label: string, l: Load) =>
  console.log(
    `${label.padEnd(44)} ${Math.round(l.rate).toLocaleString('en-US').padStart(7)} req/s  ` +
      `p50 ${l.p50} ms  p99 ${l.p99} ms  max ${l.max} ms  server CPU ${l.cpu.toFixed(1)} s  (${l.statuses})`,
  );

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-api-'));
  const broker = new EmbeddedBroker({ dir: path.join(dir, 'broker'), internalPartitions: 1 });
  const bootstrap = await broker.start();
  // interrupted: the broker (a JVM of its own) must not outlive the bench
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void broker.stop().finally(() => process.exit(1)));
  const home = path.join(dir, 'home');
  let node: Server | undefined;
  let ceiling: Server | undefined;
  try {
    node = await startServer('node', { bootstrap, home });
    await initAdmin(node.url);
    const token = (await signInAdmin(node.url)).access_token;
    const rules = pdlRules(benchRules(ruleCount)).map((r) => ({
      ...r,
      description: `Detects ${r.name}: a Sigma-style rule of the engine benchmark`,
    }));
    const bulk = await call(`${node.url}/api/bulk/rules`, 'POST', rules, token);
    if (bulk.status !== 200) throw new Error(`bulk: ${bulk.status} ${bulk.text.slice(0, 500)}`);
    const listed = await call(`${node.url}/api/rules`, 'GET', undefined, token);
    if (listed.status !== 200) throw new Error(`list: ${listed.status}`);
    const bodyFile = path.join(dir, 'rules.json');
    writeFileSync(bodyFile, listed.text);
    ceiling = await startServer('ceiling', { bootstrap, home, body: bodyFile });
    console.log(
      `GET /api/rules: ${ruleCount} rules, ${Buffer.byteLength(listed.text).toLocaleString('en-US')} bytes; ${connections} connections, ${seconds} s each; ` +
        `${os.cpus().length} cores, load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    const auth = { authorization: `Bearer ${token}` };
    const top = await load(`${ceiling.url}/api/rules`, ceiling.child.pid!, {});
    show('ceiling: plain Node HTTPS, the same bytes', top);
    const full = await load(`${node.url}/api/rules`, node.child.pid!, auth);
    show('Weir: GET /api/rules → 200', full);
    console.log(
      `Weir / ceiling (200 with the body): ${(full.rate / top.rate).toFixed(2)}; p99 ${full.p99} ms (ceiling ${top.p99} ms)`,
    );
    // an API without ETags (an earlier Weir) is measured without this scenario
    if (listed.etag) {
      const cached = await load(`${node.url}/api/rules`, node.child.pid!, { ...auth, 'if-none-match': listed.etag });
      show('Weir: GET /api/rules, If-None-Match → 304', cached);
      console.log(`Weir with If-None-Match / ceiling: ${(cached.rate / top.rate).toFixed(2)}; p99 ${cached.p99} ms`);
    }
  } finally {
    if (ceiling) await stopServer(ceiling);
    if (node) await stopServer(node);
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
