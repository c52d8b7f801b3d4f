/**
 * bench/soak: a real Weir node (local store, 2 stream threads) on the embedded broker under an hour of
 * mixed load, with its resident memory sampled, to tell growth from stored state apart from a leak.
 *   - Stream: the reference pipeline of bench/engine.ts (PARSE_KV → TIMESTAMP → PDL_EXPRESSION →
 *     APPLY_RULES, 100 rules) over a steady stream of events (default 1,000 a second, 4 partitions,
 *     unkeyed), with its outputs and alerts written to Kafka.
 *   - API, about 5 requests a second from one admin: list reads (with and without If-None-Match), rule
 *     tests and PDL tests, produce and consume sessions, a live tail opened and closed, a rule updated
 *     (hot reload on the workers) and a rule created and deleted every minute, sign-in and token
 *     refresh. Every answer must be the expected status; any other fails the run.
 * Every 10 s: the node's resident memory (VmRSS, all threads) and its stored state (rules, the SQLite
 * files' size, events and alerts so far). At the end: the first ten minutes and the rest apart, the
 * growth per hour after minute ten by a least-squares line, and the change of stored state over the
 * same span.
 * Run: `node_modules/.bin/node bench/soak.ts [seconds] [eventsPerSecond]` (3600, 1000); a quick check:
 * `node_modules/.bin/node bench/soak.ts 120`.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { Admin, ProduceAcks, Producer } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { call, initAdmin, signInAdmin, startServer, stopServer, type Server } from './api-node.ts';
import { residentMiB } from './engine-procs.ts';
import { benchRules, line, pdlRules, referenceTasks } from './engine-workload.ts';

const seconds = Number(process.argv[2] ?? 3600);
const rate = Number(process.argv[3] ?? 1000);
const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
const sampleMs = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  readonly at: number;
  readonly rssMiB: number;
  readonly storeMiB: number;
  readonly rules: number;
  readonly events: number;
  readonly processed: number;
  readonly requests: number;
}

/** Bytes of every file under a folder (the node's SQLite store and its WAL). */
function folderBytes(dir: string): number {
  let sum = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, name.name);
    sum += name.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return sum;
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Opens a server-sent-events tail for `ms` and counts the bytes it received. */
function tailFor(url: string, token: string, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const req = https.get(
      url,
      { rejectUnauthorized: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`tail: ${res.statusCode}`));
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err) => (req.destroyed ? resolve(bytes) : reject(err)));
    setTimeout(() => {
      req.destroy();
      resolve(bytes);
    }, ms);
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-soak-'));
  const broker = new EmbeddedBroker({ dir: path.join(dir, 'broker'), internalPartitions: 1 });
  const bootstrap = await broker.start();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void broker.stop().finally(() => process.exit(1)));
  const admin = new Admin({ clientId: 'soak-admin', bootstrapBrokers: [bootstrap] });
  const producer = new Producer({ clientId: 'soak-load', bootstrapBrokers: [bootstrap] });
  let node: Server | undefined;
  let failure: Error | undefined;
  try {
    // the input keeps everything (docs/engine.md: retention of replayed input); the bench's own topics
    await admin.createTopics({
      topics: ['soak-in', 'soak-out', 'soak-api'],
      partitions: 4,
      replicas: 1,
      configs: [{ name: 'retention.ms', value: '-1' }],
    });
    const home = path.join(dir, 'home');
    node = await startServer('node', { bootstrap, home, streamThreads: 2 });
    const url = node.url;
    const pid = node.child.pid!;
    type Answer = Awaited<ReturnType<typeof call>>;
    const expect = async (what: string, res: Promise<Answer>, ...ok: number[]) => {
      const r = await res;
      if (!ok.includes(r.status)) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
      return r;
    };
    await initAdmin(url);
    const signIn = () => signInAdmin(url);
    let tokens = await signIn();

    const rules = pdlRules(benchRules(100));
    await expect('rules', call(`${url}/api/bulk/rules`, 'POST', rules, tokens.access_token), 200, 201);
    const detect = { id: 4, name: 'detect', function: 'APPLY_RULES', definition: { rules: rules.map((r) => r.id) } };
    await expect(
      'tasks',
      call(`${url}/api/bulk/tasks`, 'POST', [...referenceTasks, detect], tokens.access_token),
      200,
      201,
    );
    await expect(
      'pipeline',
      call(`${url}/api/pipelines`, 'POST', { id: 1, name: 'reference', tasks: [1, 2, 3, 4] }, tokens.access_token),
      201,
    );
    await expect(
      'topology',
      call(
        `${url}/api/topologies`,
        'POST',
        {
          id: 1,
          name: 'soak',
          pipelines: [1],
          enabled: true,
          group: 'default',
          input: { name: 'soak-in', keySerde: S, valueSerde: S },
          output: [{ name: 'soak-out', keySerde: S, valueSerde: S }],
        },
        tokens.access_token,
      ),
      201,
    );

    const start = performance.now();
    const end = start + seconds * 1000;
    let events = 0;
    let requests = 0;
    const elapsed = () => (performance.now() - start) / 1000;

    // the stream: `rate` events a second in batches of a tenth of a second
    const stream = (async () => {
      const batch = Math.max(1, Math.round(rate / 10));
      while (performance.now() < end && !failure) {
        const due = start + (events / rate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const messages = [];
        for (let j = 0; j < batch; j++) messages.push({ topic: 'soak-in', value: Buffer.from(line(events + j)) });
        await producer.send({ messages, acks: ProduceAcks.LEADER });
        events += batch;
      }
    })();

    // the API: one step every 200 ms, in a fixed rotation
    const ruleIds = rules.map((r) => r.id);
    let etag: string | undefined;
    let step = 0;
    const api = (async () => {
      while (performance.now() < end && !failure) {
        const t = tokens.access_token;
        const n = step++;
        requests++;
        switch (n % 25) {
          case 0:
          case 5:
          case 10: {
            const r = await expect('GET rules', call(`${url}/api/rules`, 'GET', undefined, t), 200);
            etag = r.etag ?? etag;
            break;
          }
          case 1:
            await expect('GET topologies', call(`${url}/api/topologies`, 'GET', undefined, t), 200);
            break;
          case 2:
            await expect('GET nodes', call(`${url}/api/nodes`, 'GET', undefined, t), 200);
            break;
          case 3:
            await expect('GET metrics summary', call(`${url}/api/metrics/summary`, 'GET', undefined, t), 200);
            break;
          case 4:
            await expect('GET engine state', call(`${url}/api/engine/state`, 'GET', undefined, t), 200);
            break;
          case 6:
            await expect(
              'test rule',
              call(`${url}/api/test/rules/${ruleIds[n % ruleIds.length]}`, 'POST', { user: 'root', action: 'x' }, t),
              200,
            );
            break;
          case 7:
            await expect(
              'test pdl',
              call(
                `${url}/api/test/pdl`,
                'POST',
                Buffer.from(JSON.stringify({ pdl: 'user="root"', data: JSON.stringify({ user: 'root' }) })),
                t,
                'text/plain',
              ),
              200,
            );
            break;
          case 8:
            await expect(
              'produce',
              call(
                `${url}/api/topics/soak-api/produce`,
                'POST',
                { messages: Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: line(n + i) })) },
                t,
              ),
              201,
            );
            break;
          case 9:
            await expect(
              'consume create',
              call(`${url}/api/topics/soak-api/consume`, 'POST', { offset: 'latest', maxEvents: 50 }, t),
              201,
            );
            await expect('consume read', call(`${url}/api/topics/soak-api/consume?index=0`, 'GET', undefined, t), 200);
            break;
          case 11: {
            // a UI polling with the ETag it holds
            const r = await new Promise<number>((resolve, reject) => {
              https
                .get(
                  `${url}/api/rules`,
                  {
                    rejectUnauthorized: false,
                    headers: { authorization: `Bearer ${t}`, ...(etag ? { 'if-none-match': etag } : {}) },
                  },
                  (res) => {
                    res.resume();
                    res.on('end', () => resolve(res.statusCode ?? 0));
                  },
                )
                .on('error', reject);
            });
            if (r !== 200 && r !== 304) throw new Error(`GET rules If-None-Match: ${r}`);
            break;
          }
          case 12:
            await expect('GET topics', call(`${url}/api/topics`, 'GET', undefined, t), 200);
            break;
          case 13:
            await expect('GET tasks', call(`${url}/api/tasks`, 'GET', undefined, t), 200);
            break;
          case 14:
            if (n % 300 === 14) await tailFor(`${url}/api/alerts/tail`, t, 2000);
            break;
          case 15:
            if (n % 300 === 15) {
              // a rule changed: every worker recompiles its rule book
              const rule = rules[((n / 300) % rules.length) | 0]!;
              await expect(
                'PUT rule',
                call(`${url}/api/rules/${rule.id}`, 'PUT', { ...rule, name: `${rule.name} (edit ${n})` }, t),
                200,
              );
            }
            break;
          case 16:
            if (n % 300 === 16) {
              const id = `soak-${n}`;
              await expect(
                'POST rule',
                call(`${url}/api/rules`, 'POST', { id, name: id, pdl: 'user="nobody"' }, t),
                201,
              );
              await expect('DELETE rule', call(`${url}/api/rules/${id}`, 'DELETE', undefined, t), 200, 204);
            }
            break;
          case 17:
            if (n % 300 === 17) tokens = await signIn();
            break;
          case 18:
            if (n % 300 === 18) {
              const r = await expect(
                'refresh',
                call(`${url}/api/token/refresh`, 'GET', undefined, tokens.refresh_token),
                200,
              );
              tokens = JSON.parse(r.text) as typeof tokens;
            }
            break;
          default:
            await expect('GET pipelines', call(`${url}/api/pipelines`, 'GET', undefined, t), 200);
        }
        await sleep(200);
      }
    })();

    const samples: Sample[] = [];
    const sampler = (async () => {
      while (performance.now() < end && !failure) {
        const rssMiB = residentMiB(pid);
        const storeMiB = folderBytes(home) / 2 ** 20;
        const list = await call(`${url}/api/rules`, 'GET', undefined, tokens.access_token);
        const [offsets] = await admin.listConsumerGroupOffsets({
          groups: [{ groupId: 'weir-engine', topics: [{ name: 'soak-in', partitionIndexes: [0, 1, 2, 3] }] }] as never,
        });
        let processed = 0;
        for (const t of offsets?.topics ?? [])
          for (const p of t.partitions) if (p.committedOffset > 0n) processed += Number(p.committedOffset);
        const s: Sample = {
          at: elapsed(),
          rssMiB,
          storeMiB,
          rules: list.status === 200 ? (JSON.parse(list.text) as unknown[]).length : -1,
          events,
          processed,
          requests,
        };
        samples.push(s);
        console.log(
          `${s.at.toFixed(0).padStart(5)} s  resident ${rssMiB.toFixed(0).padStart(5)} MiB  home ${storeMiB.toFixed(1)} MiB  ` +
            `rules ${s.rules}  events ${events.toLocaleString('en-US')} (committed ${processed.toLocaleString('en-US')})  API requests ${requests.toLocaleString('en-US')}`,
        );
        await sleep(sampleMs);
      }
    })();

    await Promise.all([
      stream.catch((e: Error) => (failure ??= e)),
      api.catch((e: Error) => (failure ??= e)),
      sampler.catch((e: Error) => (failure ??= e)),
    ]);
    if (failure) throw failure;

    const after = samples.filter((s) => s.at >= Math.min(600, seconds / 6));
    const first = after[0]!;
    const last = samples[samples.length - 1]!;
    const perHour = slope(after.map((s) => [s.at / 3600, s.rssMiB])) || 0;
    const max = Math.max(...samples.map((s) => s.rssMiB));
    console.log(
      `\n${seconds} s, ${rate.toLocaleString('en-US')} events/s (${last.events.toLocaleString('en-US')} events, ${last.processed.toLocaleString('en-US')} committed at the last sample), ` +
        `${last.requests.toLocaleString('en-US')} API requests; ${os.cpus().length} cores, load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    console.log(
      `resident: ${samples[0]!.rssMiB.toFixed(0)} MiB at the first sample, ${first.rssMiB.toFixed(0)} MiB at ${first.at.toFixed(0)} s, ` +
        `${last.rssMiB.toFixed(0)} MiB at the end, max ${max.toFixed(0)} MiB; after ${first.at.toFixed(0)} s: ` +
        `${(last.rssMiB - first.rssMiB).toFixed(0)} MiB, least-squares ${perHour.toFixed(1)} MiB/hour`,
    );
    console.log(
      `stored state over the same span: home ${first.storeMiB.toFixed(1)} → ${last.storeMiB.toFixed(1)} MiB, rules ${first.rules} → ${last.rules}`,
    );
  } finally {
    if (node) await stopServer(node).catch(() => undefined);
    await producer.close().catch(() => undefined);
    await admin.close().catch(() => undefined);
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
