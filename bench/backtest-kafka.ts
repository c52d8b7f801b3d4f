/**
 * bench/backtest-kafka (issue #22, "Speed"): a backtest over a topic range against the live engine,
 * the same rules, in one run. The reference pipeline of bench/engine.ts (PARSE_KV → TIMESTAMP →
 * PDL_EXPRESSION → APPLY_RULES, 100 rules, bench/engine-workload.ts) over N events on a 2-partition
 * topic of an embedded broker:
 *  - live: the engine's 2 worker threads as the engine starts them (bench/engine-weir.ts, a process
 *    of its own, a fresh consumer group each round) read the topic from its start; events/s = N /
 *    the time until the group committed all N;
 *  - backtest: a node (bench/api-server.ts, a process of its own) with the same pipeline stored runs
 *    `POST /api/backtests` with that pipeline as the candidate over the whole range (offsets);
 *    events/s = N / the time from the request until the status is `done`.
 * Rounds alternate which runs first. Each round checks that the backtest counted the alerts the
 * live run wrote (the alerts topic's growth, read with the broker's own offsets).
 * Prints per round both rates and CPU-s, their ratio (backtest / live), and the median of the ratios.
 * Run: `node_modules/.bin/node bench/backtest-kafka.ts [events=500000] [rounds=3]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { call, initAdmin, signInAdmin, startServer, stopServer, type Server } from './api-node.ts';
import { cpuSeconds, startWeir } from './engine-procs.ts';
import { committedSum, endOffsets } from './kafka-offsets.ts';
import { benchRules, line, snapshot } from './engine-workload.ts';

const count = Number(process.argv[2] ?? 500_000);
const rounds = Number(process.argv[3] ?? 3);
const input = 'events';
const alertsTopic = 'events-alerts';

async function load(bootstrap: string): Promise<void> {
  const producer = new Producer({ clientId: 'bench-backtest-load', bootstrapBrokers: [bootstrap], idempotent: true });
  for (let i = 0; i < count; i += 5_000) {
    const messages = [];
    for (let j = i; j < Math.min(count, i + 5_000); j++)
      messages.push({ topic: input, value: Buffer.from(line(j)), partition: j % 2 });
    await producer.send({ messages, acks: ProduceAcks.ALL });
  }
  await producer.close();
}

/** The reference configuration stored on the node through the API (bulk endpoints). */
async function storeReference(node: Server, token: string): Promise<void> {
  const config = snapshot('reference', input, 'events-out', benchRules(100));
  for (const [kind, records] of [
    ['rules', config.rules],
    ['tasks', config.tasks],
    ['pipelines', config.pipelines],
    ['topologies', config.topologies],
  ] as const) {
    const res = await call(`${node.url}/api/bulk/${kind}`, 'POST', records, token);
    if (res.status !== 200) throw new Error(`storing ${kind}: ${res.status} ${res.text}`);
  }
}

interface Measured {
  readonly rate: number;
  readonly cpu: number;
  readonly alerts: number;
}

async function live(bootstrap: string, admin: Admin, round: number): Promise<Measured> {
  const group = `bench-live-${round}`;
  const alertsBefore = (await endOffsets(admin, alertsTopic)).reduce((a, b) => a + b, 0);
  const started = performance.now();
  const runner = startWeir(
    { bootstrap, group, scenario: 'reference', input, output: 'events-out', alertsTopic, threads: 2 },
    (message) => console.error(`[live] ${message}`),
  );
  const cpu0 = cpuSeconds(runner.pid);
  while ((await committedSum(admin, group, input)) < count) await new Promise((r) => setTimeout(r, 100));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(runner.pid) - cpu0;
  await runner.stop();
  const alerts = (await endOffsets(admin, alertsTopic)).reduce((a, b) => a + b, 0) - alertsBefore;
  return { rate: count / seconds, cpu, alerts };
}

async function backtest(node: Server, token: string, ends: number[]): Promise<Measured> {
  const cpu0 = cpuSeconds(node.child.pid!);
  const started = performance.now();
  const body = {
    candidate: { pipeline: 1 },
    source: { topic: input, offsets: { 0: [0, ends[0]!], 1: [0, ends[1]!] } },
    first: 0,
  };
  const res = await call(`${node.url}/api/backtests`, 'POST', body, token);
  if (res.status !== 202) throw new Error(`backtest: ${res.status} ${res.text}`);
  const id = (JSON.parse(res.text) as { id: string }).id;
  for (;;) {
    const status = JSON.parse((await call(`${node.url}/api/backtests/${id}`, 'GET', undefined, token)).text) as {
      state: string;
      error?: string;
      result?: { events: number; rules: { alerts: number }[] };
    };
    if (status.state === 'done') {
      const seconds = (performance.now() - started) / 1000;
      if (status.result?.events !== count) throw new Error(`backtest read ${status.result?.events} of ${count}`);
      const alerts = status.result.rules.reduce((a, r) => a + r.alerts, 0);
      return { rate: count / seconds, cpu: cpuSeconds(node.child.pid!) - cpu0, alerts };
    }
    if (status.state === 'failed' || status.state === 'cancelled')
      throw new Error(`backtest ${status.state}: ${status.error}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-backtest-'));
  const broker = new EmbeddedBroker({ dir: path.join(dir, 'broker'), internalPartitions: 1 });
  const bootstrap = await broker.start();
  const admin = new Admin({ clientId: 'bench-backtest-admin', bootstrapBrokers: [bootstrap] });
  let node: Server | undefined;
  try {
    await admin.createTopics({ topics: [input, 'events-out', alertsTopic], partitions: 2, replicas: 1 });
    await load(bootstrap);
    const ends = await endOffsets(admin, input);
    node = await startServer('node', {
      bootstrap,
      home: path.join(dir, 'home'),
      // the backtest's own limits: the whole range, whatever it takes
      settings: { 'weir.backtest.max-events': String(count * 2), 'weir.backtest.deadline-seconds': '3600' },
    });
    await initAdmin(node.url);
    const token = (await signInAdmin(node.url)).access_token;
    await storeReference(node, token);
    console.log(
      `${fmt(count)} events on 2 partitions; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? (['live', 'backtest'] as const) : (['backtest', 'live'] as const);
      const got: Partial<Record<'live' | 'backtest', Measured>> = {};
      for (const side of order)
        got[side] = side === 'live' ? await live(bootstrap, admin, round) : await backtest(node, token, ends);
      const l = got.live!;
      const b = got.backtest!;
      if (l.alerts !== b.alerts)
        throw new Error(`round ${round}: live wrote ${l.alerts} alerts, the backtest counted ${b.alerts}`);
      ratios.push(b.rate / l.rate);
      console.log(
        `round ${round} (${order.join(' first, ')} second): live ${fmt(l.rate)} events/s (CPU ${l.cpu.toFixed(1)} s), ` +
          `backtest ${fmt(b.rate)} events/s (CPU ${b.cpu.toFixed(1)} s); backtest/live ${(b.rate / l.rate).toFixed(2)}; ` +
          `${fmt(b.alerts)} alerts on both sides`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(`median backtest/live events/s: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}`);
  } finally {
    await admin.close();
    if (node) await stopServer(node);
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
