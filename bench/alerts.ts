/**
 * bench/alerts: the alert store (docs/alerts.md, "The alert store and triage") of a real Weir node
 * (a process of its own, bench/api-server.ts) on an embedded broker.
 * 1. Ingest: N alert records (default 1,000,000; 50 rules, each of one of five severities, 1,000 users, event
 *    times over seven days) are written to `weir_alerts` (2 partitions) first; then the node starts
 *    and fills its index from the topic. Alerts/s = N / the time until the API's groups count N; also the
 *    rate after sign-in (the alerts indexed from the first poll on, over the time since it: start-up left out).
 *    With `WEIR_BENCH_ALERTS_STREAM=1` the engine's reference pipeline (bench/engine-workload.ts: 100
 *    rules, 2 stream worker threads started as the engine starts them, bench/engine-weir.ts, a process
 *    of its own on the same machine and broker) runs over 12M events (WEIR_BENCH_ALERTS_STREAM_EVENTS; loaded first) from the moment
 *    the node starts, so the index fills while the stream runs; its progress at the end of the ingest
 *    is printed (it must still be running then for the figure to count).
 * 2. Queries with N alerts stored: autocannon, 10 connections (WEIR_BENCH_ALERTS_CONNECTIONS), `seconds` each (default 10), for a
 *    filtered list (rule and minimum severity), a list by entity field, a text search, and the
 *    groups by rule and by an entity field over a day. Prints requests/s, p50, p99 and max.
 * Run: `node_modules/.bin/node bench/alerts.ts [alerts] [seconds]` (WEIR_BENCH_ALERTS_QUERIES=0: the ingest only); a check: `… bench/alerts.ts 50000 3`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { call, initAdmin, signInAdmin, startServer, stopServer, type Server } from './api-node.ts';
import { alertRecord, day, T0 } from './alert-records.ts';
import { cpuSeconds, startWeir, type Runner } from './engine-procs.ts';
import { committedSum } from './kafka-offsets.ts';
import { line } from './engine-workload.ts';

const count = Number(process.argv[2] ?? 1_000_000);
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.env.WEIR_BENCH_ALERTS_CONNECTIONS ?? 10);
const stream = process.env.WEIR_BENCH_ALERTS_STREAM === '1';
/** The stream's input: enough that it still runs when the ingest ends (checked and printed). */
const streamEvents = Number(process.env.WEIR_BENCH_ALERTS_STREAM_EVENTS ?? 12_000_000);
/** `0`: the ingest only (no queries). */
const queriesToo = process.env.WEIR_BENCH_ALERTS_QUERIES !== '0';

async function produce(bootstrap: string): Promise<void> {
  // idempotent: right after the topic is created its leaders may not be known yet; retries must not double
  const producer = new Producer({ clientId: 'bench-alerts', bootstrapBrokers: [bootstrap], idempotent: true });
  // batches under the broker's 1 MB message size
  for (let i = 0; i < count; i += 2_000) {
    const messages = [];
    for (let n = i; n < Math.min(count, i + 2_000); n++)
      messages.push({ topic: 'weir_alerts', key: Buffer.from(`k${n}`), value: Buffer.from(alertRecord(n, count)) });
    await producer.send({ messages, acks: ProduceAcks.ALL });
  }
  await producer.close();
}

/** The reference pipeline's input: `streamEvents` events of bench/engine-workload.ts. */
async function loadEvents(bootstrap: string): Promise<void> {
  const producer = new Producer({ clientId: 'bench-alerts-events', bootstrapBrokers: [bootstrap], idempotent: true });
  for (let i = 0; i < streamEvents; i += 5_000) {
    const messages = [];
    for (let j = i; j < Math.min(streamEvents, i + 5_000); j++)
      messages.push({ topic: 'events', key: Buffer.from(`e${j}`), value: Buffer.from(line(j)) });
    await producer.send({ messages, acks: ProduceAcks.ALL });
  }
  await producer.close();
}

interface Load {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly non2xx: number;
  readonly cpu: number;
}

async function load(url: string, pid: number, token: string): Promise<Load> {
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    rate: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx + r.errors + r.timeouts,
    cpu: cpuSeconds(pid) - cpu0,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-alerts-'));
  const broker = new EmbeddedBroker({ dir: path.join(dir, 'broker'), internalPartitions: 1 });
  const bootstrap = await broker.start();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void broker.stop().finally(() => process.exit(1)));
  let node: Server | undefined;
  let pipeline: Runner | undefined;
  const admin = new Admin({ clientId: 'bench-alerts-admin', bootstrapBrokers: [bootstrap] });
  try {
    await admin.createTopics({ topics: ['weir_alerts'], partitions: 2, replicas: 1 });
    if (stream)
      await admin.createTopics({ topics: ['events', 'events-out', 'events-alerts'], partitions: 2, replicas: 1 });
    let t = performance.now();
    await produce(bootstrap);
    if (stream) await loadEvents(bootstrap);
    console.log(
      `wrote ${count.toLocaleString('en-US')} alerts in ${((performance.now() - t) / 1000).toFixed(1)} s; ` +
        `${os.cpus().length} cores, load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    t = performance.now();
    node = await startServer('node', {
      bootstrap,
      home: path.join(dir, 'home'),
      // WEIR_BENCH_ALERTS_NOTIFY=0: without the notifications' consumer (what it costs the ingest)
      settings: process.env.WEIR_BENCH_ALERTS_NOTIFY === '0' ? { 'weir.notify.enabled': 'false' } : {},
    });
    if (stream)
      pipeline = startWeir(
        {
          bootstrap,
          group: 'bench-stream',
          scenario: 'reference',
          input: 'events',
          output: 'events-out',
          alertsTopic: 'events-alerts',
          threads: 2,
        },
        (message) => console.error(`[stream] ${message}`),
      );
    await initAdmin(node.url);
    const token = (await signInAdmin(node.url)).access_token;
    const cpu0 = cpuSeconds(node.child.pid!);
    // the first poll after sign-in: how many were indexed by then, and when (the node's start-up left out)
    let first: { at: number; indexed: number } | undefined;
    for (;;) {
      const res = await call(`${node.url}/api/alerts/groups?by=rule`, 'GET', undefined, token);
      const indexed = (JSON.parse(res.text) as { groups: { count: number }[] }).groups.reduce((a, g) => a + g.count, 0);
      first ??= { at: performance.now(), indexed };
      if (indexed >= count) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const end = performance.now();
    const took = (end - t) / 1000;
    const steady = (count - first.indexed) / ((end - first.at) / 1000);
    console.log(
      `ingest: ${count.toLocaleString('en-US')} alerts indexed ${took.toFixed(1)} s after the node started: ` +
        `${Math.round(count / took).toLocaleString('en-US')} alerts/s (node CPU ${(cpuSeconds(node.child.pid!) - cpu0).toFixed(1)} s after sign-in); ` +
        `after sign-in (${first.indexed.toLocaleString('en-US')} indexed ${((first.at - t) / 1000).toFixed(1)} s after the start) ` +
        `${Math.round(steady).toLocaleString('en-US')} alerts/s`,
    );
    if (pipeline) {
      const done = await committedSum(admin, 'bench-stream', 'events');
      console.log(
        `stream: the reference pipeline had committed ${done.toLocaleString('en-US')} of ${streamEvents.toLocaleString('en-US')} events ` +
          `by then (stream process CPU ${cpuSeconds(pipeline.pid).toFixed(1)} s): ` +
          (done < streamEvents
            ? 'still running, so the figure counts; stopped before the queries'
            : 'it had ENDED before the ingest did: the figure does not count (raise WEIR_BENCH_ALERTS_STREAM_EVENTS)'),
      );
      await pipeline.stop();
      pipeline = undefined;
    }
    const dayAgo = new Date(T0 + 6 * day).toISOString();
    const queries: [string, string][] = [
      ['list: one rule (of 50), page of 100', '/api/alerts?rule=r8&minSeverity=high&limit=100'],
      ['list: minimum severity critical (1 in 5)', '/api/alerts?minSeverity=critical&limit=100'],
      ['list: a rule and a severity it never has', '/api/alerts?rule=r7&minSeverity=high&limit=100'],
      ['list: newest 100, no filter', '/api/alerts?limit=100'],
      ['list: an entity field (field.user)', '/api/alerts?field.user=u42&limit=100'],
      ['list: text search (q)', '/api/alerts?q=host-17%22&limit=100'],
      ['groups: by rule, last day', `/api/alerts/groups?by=rule&from=${dayAgo}`],
      ['groups: by rule, all', '/api/alerts/groups?by=rule'],
      ['groups: by field:user, last day', `/api/alerts/groups?by=field:user&from=${dayAgo}`],
    ];
    for (const [label, q] of queriesToo ? queries : []) {
      const l = await load(`${node.url}${q}`, node.child.pid!, token);
      console.log(
        `${label.padEnd(44)} ${Math.round(l.rate).toLocaleString('en-US').padStart(6)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms  max ${l.max} ms  ` +
          `server CPU ${l.cpu.toFixed(1)} s${l.non2xx ? `  (${l.non2xx} not 2xx/errors)` : ''}`,
      );
    }
  } finally {
    await pipeline?.stop();
    await admin.close();
    if (node) await stopServer(node);
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
