/**
 * bench/engine: Weir against Kafka Streams on one embedded Kafka broker, the same input, in one run.
 * Input: N events (default 1,000,000, ~230 bytes of `key=value` text) on a 2-partition topic.
 * Scenarios, each with its own consumer group and output topic, `rounds` rounds (default 2):
 *   (a) raw client loop, Node (@platformatic/kafka: consume → produce the same bytes → commit), in this process;
 *   (j) raw client loop, Java (KafkaConsumer → idempotent KafkaProducer → flush → commitSync per poll), 1 thread;
 *   (b) Weir passthrough topology, 2 stream worker threads (bench/engine-weir.ts, a process of its own);
 *   (k) Kafka Streams passthrough, 2 threads (bench/peers/kafka-streams);
 *   (c) Weir reference pipeline PARSE_KV → TIMESTAMP → PDL_EXPRESSION → APPLY_RULES (100 rules), 2 threads;
 *   (l) Kafka Streams reference pipeline in plain Java (the same rules one by one, the same alert JSON), 2 threads.
 * events/s: from the first output record to the group's committed offsets at the input's end;
 * CPU-s per 1M events: user + system time of the processing process (/proc/<pid>/stat) over the same window.
 * Kafka Streams runs at three settings each round: commit.interval.ms = Weir's measured commit cadence
 * in the same round (Weir commits as soon as its writes are acknowledged, weir_offset_commits_total: the mean time between two commits of
 * one worker thread), at its defaults (30 s at at-least-once; timed to its last output, since its
 * last commit comes up to 30 s later) and at commit.interval.ms=1000.
 * WEIR_BENCH_BEFORE=<another checkout, with its node_modules> also runs that checkout's Weir as (b0)
 * and (c0) in each round, for before/after ratios in one run (after first in odd rounds, before first in even ones).
 * Then latency (reference pipeline at 1,000 events/s, WEIR_BENCH_LATENCY_LOW_RATE, and at half of
 * Weir's best rate, WEIR_BENCH_LATENCY_RATE when the throughput part does not run: input append →
 * output append, both LogAppendTime, read with kcat; with the process's CPU-s per 1M events over the measured seconds; for Weir also
 * the p50/p99 of each step of a batch's way over the same seconds, from its step histograms, bench/step-metrics.ts) and memory (Weir's process under the reference load, and with
 * 10,000 rules and a 1,000,000-row lookup table).
 * Run: `node_modules/.bin/node bench/engine.ts [events]`; WEIR_BENCH_ROUNDS (2), WEIR_BENCH_PARTS
 * (`throughput,latency,memory`; `compare`: WEIR_BENCH_BEFORE against this checkout only, the order swapped every round; `profile`: one Weir passthrough run, with WEIR_BENCH_CPU_PROF=<dir>;
 * `rss`: one Weir reference run for its resident memory, with WEIR_BENCH_WORKER_HEAP_MB=<n> to bound it (WEIR_BENCH_WORKER_YOUNG_MB=<n>: the young generation);
 * `suppression`: the reference pipeline without and with a suppression on every rule, WEIR_BENCH_SUPPRESSION_WINDOW (5m);
 * with WEIR_BENCH_BEFORE, that checkout's suppressing run too;
 * `sigma`: the SigmaHQ rules in one APPLY_RULES task over N Windows events (JSON) through Weir's runner, 2 threads,
 * events/s and the alerts checked against an in-process RuleIndex; no Kafka Streams peer, there being no Kafka Streams
 * Sigma engine (bench/engine-sigma.ts);
 * `tables`: resident memory with a 1M-row lookup and 10,000 rules at 1, 2 and 4 threads against the memory of the
 * tables themselves and an idle runner's (bench/engine-memory.ts, bench/table-memory.ts)),
 * WEIR_BENCH_LATENCY_SECONDS (20; 5 below 1M events). A quick check:
 * `node_modules/.bin/node bench/engine.ts 50000`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Admin, Consumer, ProduceAcks, Producer, type Message } from '@platformatic/kafka';
import { EmbeddedBroker } from '@weir/engine';
import { tablesPart } from './engine-memory.ts';
import type { PartContext } from './engine-part.ts';
import { settingDefinitions } from '../packages/engine/src/config/settings.ts';
import { buildPeer, cpuSeconds, residentMiB, startPeer, startWeir, type Runner } from './engine-procs.ts';
import { sigmaPart } from './engine-sigma.ts';
import { benchRules, line } from './engine-workload.ts';
import { kcatLines } from './kcat-lines.ts';
import { describeSteps, difference, type StepSnapshot } from './step-metrics.ts';

const events = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.env.WEIR_BENCH_ROUNDS ?? 2);
const parts = new Set((process.env.WEIR_BENCH_PARTS ?? 'throughput,latency,memory').split(','));
/** The low rate of the latency part, events/s (WEIR_BENCH_LATENCY_LOW_RATE). */
const lowLatencyRate = Number(process.env.WEIR_BENCH_LATENCY_LOW_RATE ?? 1000);
const latencySeconds = Number(process.env.WEIR_BENCH_LATENCY_SECONDS ?? (events >= 1_000_000 ? 20 : 5));
const partitions = 2;
const threads = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (name: string) => (message: string) => console.error(`[${name}] ${message}`);

let admin: Admin;
let bootstrap: string;
let dir: string;
let rulesFile: string;
/** The embedded broker's JVM (its CPU over each measured window: the share of the two cores Weir cannot have). */
let brokerPid: number | undefined;

/** This process's CPU time (user + system), in seconds. */
function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function createTopics(names: string[], configs: { name: string; value: string }[] = []): Promise<void> {
  await admin.createTopics({ topics: names, partitions, replicas: 1, configs });
}

async function committed(group: string, topic: string): Promise<number> {
  const [result] = await admin.listConsumerGroupOffsets({
    groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: [...Array(partitions).keys()] }] }] as never,
  });
  let sum = 0;
  for (const t of result?.topics ?? [])
    for (const p of t.partitions) if (p.committedOffset > 0n) sum += Number(p.committedOffset);
  return sum;
}

/** Records on a topic (the sum of its partitions' end offsets). */
async function endOffset(topic: string): Promise<number> {
  const [t] = await admin.listOffsets({
    topics: [
      {
        name: topic,
        partitions: [...Array(partitions).keys()].map((partitionIndex) => ({ partitionIndex, timestamp: -1n })),
      },
    ],
  });
  return (t?.partitions ?? []).reduce((sum, p) => sum + Number(p.offset), 0);
}

interface Measured {
  readonly rate: number;
  readonly cpuPerMillion: number;
  /** Weir: the mean time between two commits of one worker thread. */
  readonly cadenceMs?: number;
  readonly rssMaxMiB: number;
  /** Resident memory at the first output, at half of the input and at its end. */
  readonly rssSteps: number[];
  readonly outputs: number;
  /** With `drained`: seconds from the input's last commit to the repartition topic's (the hop's tail). */
  readonly tailSeconds?: number;
  /** CPU-s per 1M events of the broker's JVM over the same window. */
  readonly brokerCpuPerMillion?: number;
  /** CPU-s per 1M events of this process (the bench: its offset polls, a load it sends meanwhile) over the same window. */
  readonly benchCpuPerMillion?: number;
}

/**
 * Runs until the group committed the whole input (or, with `outputs`, until the output topic holds
 * that many records: Kafka Streams at its default commit.interval.ms of 30 s commits long after its
 * last output): events/s and CPU from the first output on.
 */
async function measure(
  runner: Runner | null,
  group: string,
  input: string,
  output: string,
  total = events,
  outputs?: number,
  /** A repartition topic the group must also have consumed to its end (the `suppression` part). */
  drained?: string,
): Promise<Measured> {
  const cpu = () => (runner ? cpuSeconds(runner.pid) : ownCpuSeconds());
  const rss = () => (runner ? residentMiB(runner.pid) : process.memoryUsage().rss / 2 ** 20);
  const deadline = Date.now() + 15 * 60_000;
  const check = () => {
    if (Date.now() > deadline) throw new Error(`${group}: no end after 15 minutes`);
  };
  let rssMax = 0;
  while ((await endOffset(output)) === 0) {
    rssMax = Math.max(rssMax, rss());
    check();
    await sleep(20);
  }
  const brokerCpu = () => (brokerPid === undefined ? 0 : cpuSeconds(brokerPid));
  const t0 = performance.now();
  const cpu0 = cpu();
  const broker0 = brokerCpu();
  const bench0 = ownCpuSeconds();
  const steps = [rss()];
  let inputDone: number | undefined;
  for (;;) {
    const done = outputs === undefined ? await committed(group, input) : (await endOffset(output)) * (total / outputs);
    if (done >= total) inputDone ??= performance.now();
    if (done >= total && (!drained || (await committed(group, drained)) >= (await endOffset(drained)))) break;
    rssMax = Math.max(rssMax, rss());
    if (steps.length === 1 && done >= total / 2) steps.push(rss());
    check();
    await sleep(50);
  }
  const end = performance.now();
  const seconds = (end - t0) / 1000;
  const cpu1 = cpu();
  const broker1 = brokerCpu();
  const bench1 = ownCpuSeconds();
  steps.push(rss());
  rssMax = Math.max(rssMax, rss());
  if (runner) await runner.stop();
  const batches = runner?.batches() ?? 0;
  return {
    rate: total / seconds,
    cpuPerMillion: ((cpu1 - cpu0) / total) * 1e6,
    rssMaxMiB: rssMax,
    rssSteps: steps,
    outputs: await endOffset(output),
    ...(drained && inputDone !== undefined ? { tailSeconds: (end - inputDone) / 1000 } : {}),
    ...(batches > 0 ? { cadenceMs: (seconds * 1000 * threads) / batches } : {}),
    ...(brokerPid === undefined ? {} : { brokerCpuPerMillion: ((broker1 - broker0) / total) * 1e6 }),
    ...(runner ? { benchCpuPerMillion: ((bench1 - bench0) / total) * 1e6 } : {}),
  };
}

/** (a) The raw loop with the same client, batch size and commit rule as the stream worker, in this process. */
async function rawLoop(input: string, output: string, group: string): Promise<() => Promise<void>> {
  const consumer = new Consumer({
    clientId: 'bench-raw',
    groupId: group,
    bootstrapBrokers: [bootstrap],
    maxWaitTime: 200,
    maxBytes: 16 * 1024 * 1024,
  });
  const producer = new Producer({
    clientId: 'bench-raw',
    bootstrapBrokers: [bootstrap],
    idempotent: true,
    acks: ProduceAcks.ALL,
  });
  const stream = await consumer.consume({
    topics: [input],
    mode: 'committed',
    fallbackMode: 'earliest',
    autocommit: false,
    highWaterMark: 4096,
  });
  let running = true;
  const loop = (async () => {
    while (running) {
      const batch: Message<Buffer, Buffer, Buffer, Buffer>[] = [];
      let m;
      while (batch.length < 2000 && (m = stream.read()) !== null)
        batch.push(m as Message<Buffer, Buffer, Buffer, Buffer>);
      if (batch.length === 0) {
        // wait for records or 200 ms, leaving no listener behind
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            stream.off('readable', done);
            resolve();
          };
          const timer = setTimeout(done, 200);
          stream.once('readable', done);
        });
        continue;
      }
      await producer.send({
        messages: batch.map((b) => ({ topic: output, key: b.key, value: b.value, timestamp: b.timestamp })),
      });
      const last = new Map<string, Message<Buffer, Buffer, Buffer, Buffer>>();
      for (const b of batch) last.set(`${b.topic}:${b.partition}`, b);
      await Promise.all([...last.values()].map((b) => b.commit()));
    }
  })();
  stream.on('readable', () => {});
  return async () => {
    running = false;
    await loop;
    await stream.close();
    await consumer.close(true);
    await producer.close();
  };
}

function weir(
  scenario: 'passthrough' | 'reference',
  group: string,
  input: string,
  output: string,
  alertsTopic: string,
  extra: { rules?: number; lookupRows?: number; suppression?: string } = {},
  checkout?: string,
): Runner {
  return startWeir({ bootstrap, group, scenario, input, output, alertsTopic, threads, ...extra }, log(group), checkout);
}

function peer(
  mode: 'raw' | 'passthrough' | 'reference',
  group: string,
  input: string,
  output: string,
  alerts: string,
  commitIntervalMs: number | 'default',
): Runner {
  return startPeer(
    mode,
    {
      bootstrap,
      group,
      input,
      output,
      alerts,
      threads,
      commitIntervalMs,
      rules: rulesFile,
      stateDir: path.join(dir, `ks-${group}`),
    },
    log(group),
  );
}

async function load(topic: string, from: number, to: number, key: (i: number) => string): Promise<void> {
  const producer = new Producer({ clientId: 'bench-load', bootstrapBrokers: [bootstrap] });
  for (let i = from; i < to; i += 10_000) {
    const messages = [];
    for (let j = i; j < Math.min(to, i + 10_000); j++)
      messages.push({ topic, key: Buffer.from(key(j)), value: Buffer.from(line(j)) });
    await producer.send({ messages, acks: ProduceAcks.LEADER });
  }
  await producer.close();
}

const fmtRate = (n: number) => `${Math.round(n).toLocaleString('en-US')}`;
const fmtCpu = (n: number) => n.toFixed(2);

/** Another checkout (its bench/engine-weir.ts and engine) run beside this one: (b0) and (c0). */
const before = process.env.WEIR_BENCH_BEFORE;

async function throughput(input: string): Promise<number> {
  const results = new Map<string, Measured[]>();
  const add = (k: string, m: Measured) => results.set(k, [...(results.get(k) ?? []), m]);
  const weirKeys = before ? ['b', 'c', 'b0', 'c0'] : ['b', 'c'];
  const peerKeys = ['k', 'l', 'kd', 'ld', 'k1', 'l1'];
  for (let round = 1; round <= rounds; round++) {
    const topic = (s: string) => `out-${s}${round}`;
    const alerts = ['c', 'c0', 'l', 'ld', 'l1'].map((s) => `alerts-${s}${round}`);
    await createTopics(['a', 'j', ...weirKeys, ...peerKeys].map(topic).concat(alerts));
    const stopRaw = await rawLoop(input, topic('a'), `bench-a${round}`);
    add('a', await measure(null, `bench-a${round}`, input, topic('a')));
    await stopRaw();
    add(
      'j',
      await measure(peer('raw', `bench-j${round}`, input, topic('j'), '', 0), `bench-j${round}`, input, topic('j')),
    );
    const runWeir = async (key: string, scenario: 'passthrough' | 'reference', checkout?: string) => {
      const group = `bench-${key}${round}`;
      const m = await measure(
        weir(scenario, group, input, topic(key), `alerts-${key}${round}`, {}, checkout),
        group,
        input,
        topic(key),
      );
      add(key, m);
      return m;
    };
    // with a before checkout, the order swaps every round: neither side always runs first
    if (before && round % 2 === 0) {
      await runWeir('b0', 'passthrough', before);
      await runWeir('c0', 'reference', before);
    }
    const b = await runWeir('b', 'passthrough');
    const c = await runWeir('c', 'reference');
    if (before && round % 2 === 1) {
      await runWeir('b0', 'passthrough', before);
      await runWeir('c0', 'reference', before);
    }
    const commitB = Math.max(1, Math.round(b.cadenceMs ?? 100));
    const commitC = Math.max(1, Math.round(c.cadenceMs ?? 100));
    const runPeer = async (key: string, mode: 'passthrough' | 'reference', commit: number | 'default') => {
      const group = `bench-${key}${round}`;
      const alertsTopic = mode === 'reference' ? `alerts-${key}${round}` : '';
      // at the default interval the last commit comes up to 30 s after the last output: count outputs
      const outputs = commit === 'default' ? (mode === 'passthrough' ? events : c.outputs) : undefined;
      const runner = peer(mode, group, input, topic(key), alertsTopic, commit);
      add(key, await measure(runner, group, input, topic(key), events, outputs));
    };
    await runPeer('k', 'passthrough', commitB);
    await runPeer('l', 'reference', commitC);
    await runPeer('kd', 'passthrough', 'default');
    await runPeer('ld', 'reference', 'default');
    await runPeer('k1', 'passthrough', 1000);
    await runPeer('l1', 'reference', 1000);
    console.log(
      `round ${round}: Weir commit cadence per thread: passthrough ${b.cadenceMs?.toFixed(1)} ms, reference ${c.cadenceMs?.toFixed(1)} ms ` +
        `→ Kafka Streams commit.interval.ms ${commitB} / ${commitC}; reference outputs: Weir ${c.outputs}, Kafka Streams ${results.get('l')!.at(-1)!.outputs}`,
    );
  }
  const best = (k: string) => Math.max(...results.get(k)!.map((m) => m.rate));
  const leastCpu = (k: string) => Math.min(...results.get(k)!.map((m) => m.cpuPerMillion));
  const rows: [string, string][] = [
    ['a', '(a) Node raw loop, @platformatic/kafka (bench process)'],
    ['j', '(j) Java raw loop, 1 thread'],
    ['b', '(b) Weir passthrough, 2 threads'],
    ...(before ? [['b0', '(b0) Weir passthrough, before (WEIR_BENCH_BEFORE)'] as [string, string]] : []),
    ['k', "(k) Kafka Streams passthrough, commit = Weir's cadence"],
    ['kd', '(kd) Kafka Streams passthrough, defaults (commit 30 s)'],
    ['k1', '(k1) Kafka Streams passthrough, commit 1 s'],
    ['c', '(c) Weir reference pipeline, 2 threads'],
    ...(before ? [['c0', '(c0) Weir reference, before (WEIR_BENCH_BEFORE)'] as [string, string]] : []),
    ['l', "(l) Kafka Streams reference, commit = Weir's cadence"],
    ['ld', '(ld) Kafka Streams reference, defaults (commit 30 s)'],
    ['l1', '(l1) Kafka Streams reference, commit 1 s'],
  ];
  console.log(
    `\n${events.toLocaleString('en-US')} events, ${rounds} round(s); events/s best (rounds) | CPU-s per 1M events least (rounds) | RSS max MiB`,
  );
  for (const [k, label] of rows) {
    const ms = results.get(k)!;
    console.log(
      `${label.padEnd(56)} ${fmtRate(best(k)).padStart(8)} (${ms.map((m) => fmtRate(m.rate)).join(' / ')})  | ` +
        `${fmtCpu(leastCpu(k)).padStart(6)} (${ms.map((m) => fmtCpu(m.cpuPerMillion)).join(' / ')})  | ${Math.round(Math.max(...ms.map((m) => m.rssMaxMiB)))}`,
    );
  }
  const ratio = (x: string, y: string) =>
    `events/s ${(best(x) / best(y)).toFixed(2)}, CPU-s per 1M ${(leastCpu(x) / leastCpu(y)).toFixed(2)}`;
  for (const [w, label] of before
    ? [
        ['', 'now'],
        ['0', 'before'],
      ]
    : [['', 'now']]) {
    for (const [peerSuffix, setting] of [
      ['', "commit = Weir's cadence"],
      ['d', 'Kafka Streams defaults'],
      ['1', 'commit 1 s'],
    ]) {
      console.log(
        `Weir (${label}) / Kafka Streams (${setting}), passthrough (b${w}/k${peerSuffix}): ${ratio(`b${w}`, `k${peerSuffix}`)}`,
      );
      console.log(
        `Weir (${label}) / Kafka Streams (${setting}), reference   (c${w}/l${peerSuffix}): ${ratio(`c${w}`, `l${peerSuffix}`)}`,
      );
    }
  }
  if (before) {
    console.log(`Weir now / before, passthrough (b/b0): ${ratio('b', 'b0')}`);
    console.log(`Weir now / before, reference   (c/c0): ${ratio('c', 'c0')}`);
  }
  console.log(
    `Weir passthrough / Node raw loop (b/a): events/s ${(best('b') / best('a')).toFixed(2)}; Java raw / Node raw (j/a): ${(best('j') / best('a')).toFixed(2)}`,
  );
  const c = results.get('c')!;
  console.log(
    `Weir reference, resident MiB at first output / half / end: ${c.map((m) => m.rssSteps.map(Math.round).join(' / ')).join('; ')}`,
  );
  return best('c');
}

/**
 * What suppression costs (part `suppression`): each round runs the reference pipeline as it is and
 * with every rule given `suppression: {fields: ["user"], window: WEIR_BENCH_SUPPRESSION_WINDOW (5m)}`
 * (every alert then goes through the task's repartition topic to its window's partition), the order
 * swapped every round. Measured to the input's last commit and the stage's repartition topic's. Prints each round (with
 * the records and bytes the stage's repartition and changelog topics got, and how long after the input's last commit
 * the repartition topic's came) and the median of the with/without ratios. With WEIR_BENCH_BEFORE, the suppressing run of
 * that checkout too, in each round, against the same run without suppression.
 */
const supKey = (round: number, side: 'with' | 'without' | 'before') => `sup-${side}-${round}`;

async function suppressionCost(input: string): Promise<void> {
  const window = process.env.WEIR_BENCH_SUPPRESSION_WINDOW ?? '5m';
  const rate: number[] = [];
  const cpu: number[] = [];
  const beforeRate: number[] = [];
  const beforeCpu: number[] = [];
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  for (let round = 1; round <= rounds; round++) {
    // WEIR_BENCH_BEFORE: that checkout's suppressing run too, after this one's in odd rounds, first in even ones
    const order = round % 2 === 1 ? (['with', 'without', 'before'] as const) : (['before', 'without', 'with'] as const);
    const sides = order.filter((s) => s !== 'before' || before);
    const got: Partial<Record<'with' | 'without' | 'before', Measured>> = {};
    for (const side of sides) {
      const key = supKey(round, side);
      await createTopics([`out-${key}`, `alerts-${key}`]);
      const extra = side === 'without' ? {} : { suppression: window };
      // to the end of the stage's repartition topic too: the alerts go on to their windows' partitions there
      got[side] = await measure(
        weir('reference', key, input, `out-${key}`, `alerts-${key}`, extra, side === 'before' ? before : undefined),
        key,
        input,
        `out-${key}`,
        events,
        undefined,
        side === 'without' ? undefined : `${key}-reference-1-task4-repartition`,
      );
    }
    const [a, b] = [got.with!, got.without!];
    const stage = `${supKey(round, 'with')}-reference-1-task4`;
    const [rp, cl] = [topicBytes(`${stage}-repartition`), topicBytes(`${stage}-changelog`)];
    const alertValues = topicValues(`alerts-${supKey(round, 'with')}`);
    console.log(
      `round ${round}: the stage's topics hold ${rp.records.toLocaleString('en-US')} repartition records (${(rp.bytes / 2 ** 20).toFixed(1)} MiB of values) and ` +
        `${cl.records.toLocaleString('en-US')} changelog records (${(cl.bytes / 2 ** 20).toFixed(1)} MiB); ` +
        `the alerts topic ${alertValues.length} records, ${new Set(alertValues).size} distinct (at least once: a record read again writes its window's first alert again)`,
    );
    rate.push(a.rate / b.rate);
    cpu.push(a.cpuPerMillion / b.cpuPerMillion);
    const c = got.before;
    if (c) {
      beforeRate.push(c.rate / b.rate);
      beforeCpu.push(c.cpuPerMillion / b.cpuPerMillion);
      console.log(
        `round ${round} before (WEIR_BENCH_BEFORE) with suppression: ${fmtRate(c.rate)} events/s ${fmtCpu(c.cpuPerMillion)} CPU-s/1M; ` +
          `before-with/without events/s ${(c.rate / b.rate).toFixed(2)}, CPU ${(c.cpuPerMillion / b.cpuPerMillion).toFixed(2)}`,
      );
    }
    console.log(
      `round ${round} reference (${sides.join(' then ')}): with suppression ${fmtRate(a.rate)} events/s ${fmtCpu(a.cpuPerMillion)} CPU-s/1M, ` +
        `${(await endOffset(`alerts-${supKey(round, 'with')}`)).toLocaleString('en-US')} alerts written, repartition drained ${a.tailSeconds?.toFixed(2)} s after the input; without ${fmtRate(b.rate)} events/s ${fmtCpu(b.cpuPerMillion)} CPU-s/1M, ` +
        `${(await endOffset(`alerts-${supKey(round, 'without')}`)).toLocaleString('en-US')} alerts; with/without events/s ${(a.rate / b.rate).toFixed(2)}, CPU ${(a.cpuPerMillion / b.cpuPerMillion).toFixed(2)}`,
    );
  }
  console.log(
    `suppression (window ${window}) with/without, reference, median of ${rounds} rounds: events/s ${median(rate).toFixed(2)} (${rate.map((x) => x.toFixed(2)).join(' ')}), ` +
      `CPU-s per 1M ${median(cpu).toFixed(2)} (${cpu.map((x) => x.toFixed(2)).join(' ')})`,
  );
  if (beforeRate.length > 0)
    console.log(
      `before (WEIR_BENCH_BEFORE) with/without, median of ${rounds} rounds: events/s ${median(beforeRate).toFixed(2)} (${beforeRate.map((x) => x.toFixed(2)).join(' ')}), ` +
        `CPU-s per 1M ${median(beforeCpu).toFixed(2)} (${beforeCpu.map((x) => x.toFixed(2)).join(' ')})`,
    );
}

/**
 * Before against after only (WEIR_BENCH_BEFORE, part `compare`): each round runs both checkouts on the
 * passthrough and on the reference pipeline, the order swapped every round (odd rounds: after first),
 * so that neither side always runs on the warmer or the busier machine. Prints every round's pair and
 * the median of the per-round ratios.
 */
async function compare(input: string): Promise<void> {
  if (!before) throw new Error('the compare part needs WEIR_BENCH_BEFORE=<the other checkout>');
  const ratios: Record<'passthrough' | 'reference', { rate: number[]; cpu: number[] }> = {
    passthrough: { rate: [], cpu: [] },
    reference: { rate: [], cpu: [] },
  };
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of ['passthrough', 'reference'] as const) {
      const sides = round % 2 === 1 ? (['after', 'before'] as const) : (['before', 'after'] as const);
      const got: Partial<Record<'after' | 'before', Measured>> = {};
      for (const side of sides) {
        const key = `cmp-${scenario}-${side}-${round}`;
        await createTopics([`out-${key}`, `alerts-${key}`]);
        const runner = weir(
          scenario,
          key,
          input,
          `out-${key}`,
          `alerts-${key}`,
          {},
          side === 'before' ? before : undefined,
        );
        got[side] = await measure(runner, key, input, `out-${key}`);
      }
      const [a, b] = [got.after!, got.before!];
      ratios[scenario].rate.push(a.rate / b.rate);
      ratios[scenario].cpu.push(a.cpuPerMillion / b.cpuPerMillion);
      console.log(
        `round ${round} ${scenario.padEnd(11)} (${sides.join(' then ')}): after ${fmtRate(a.rate)} events/s ${fmtCpu(a.cpuPerMillion)} CPU-s/1M; ` +
          `before ${fmtRate(b.rate)} events/s ${fmtCpu(b.cpuPerMillion)} CPU-s/1M; after/before events/s ${(a.rate / b.rate).toFixed(2)}, CPU ${(a.cpuPerMillion / b.cpuPerMillion).toFixed(2)}`,
      );
    }
  }
  for (const scenario of ['passthrough', 'reference'] as const) {
    const r = ratios[scenario];
    console.log(
      `after/before ${scenario}, median of ${rounds} rounds: events/s ${median(r.rate).toFixed(2)} (${r.rate.map((x) => x.toFixed(2)).join(' ')}), ` +
        `CPU-s per 1M ${median(r.cpu).toFixed(2)} (${r.cpu.map((x) => x.toFixed(2)).join(' ')})`,
    );
  }
}

/** Records of a topic and the bytes of their values, read with kcat. */
function topicBytes(topic: string): { records: number; bytes: number } {
  const sizes = kcatLines(bootstrap, topic, '%S\n').map(Number);
  return { records: sizes.length, bytes: sizes.reduce((a, b) => a + Math.max(0, b), 0) };
}

/** The values of a topic's records, read with kcat (JSON text: one a line). */
function topicValues(topic: string): string[] {
  return kcatLines(bootstrap, topic, '%s\n');
}

/** (key, timestamp) of every record of a topic, read with kcat (librdkafka reports LogAppendTime). */
function kcat(topic: string): [string, number][] {
  return kcatLines(bootstrap, topic, '%k %T\n').map((l) => {
    const space = l.lastIndexOf(' ');
    return [l.slice(0, space), Number(l.slice(space + 1))];
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** End-to-end latency of the reference pipeline at a fixed rate: input append time → output append time. */
async function latency(who: 'weir' | 'kafka-streams', rate: number): Promise<void> {
  const input = `lat-in-${who}-${rate}`;
  const output = `lat-out-${who}-${rate}`;
  const alerts = `lat-alerts-${who}-${rate}`;
  const group = `bench-lat-${who}-${rate}`;
  await createTopics([input, output, alerts], [{ name: 'message.timestamp.type', value: 'LogAppendTime' }]);
  const runner =
    who === 'weir'
      ? weir('reference', group, input, output, alerts)
      : peer('reference', group, input, output, alerts, 100);
  // started: the group has committed a first few records; then at least 5 s at the same rate warm
  // the JIT and settle the group (keys W…), until it has caught up (less than half a second of input
  // not committed; at most 90 s); then `latencySeconds` measured (keys L…)
  await load(input, 0, 100, (i) => `S${i}`);
  while ((await committed(group, input)) < 100) await sleep(100);
  const producer = new Producer({ clientId: 'bench-rate', bootstrapBrokers: [bootstrap] });
  const started = performance.now();
  let sent = 0;
  let measuredFrom = -1;
  let measureStart = 0;
  let cpuAtStart = 0;
  let cpuAtEnd: number;
  let lag = Infinity;
  let lagCheck: Promise<void> | null = null;
  /** Weir's step histograms when the measured seconds start (bench/step-metrics.ts). */
  let stepsAtStart: Promise<StepSnapshot | undefined> | undefined;
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (measuredFrom < 0) {
      if (lagCheck === null) {
        const at = sent;
        lagCheck = committed(group, input).then((c) => {
          lag = at - (c - 100);
          lagCheck = null;
        });
      }
      if ((elapsed >= 5 && lag < rate / 2) || elapsed >= 90) {
        measuredFrom = sent;
        measureStart = performance.now();
        cpuAtStart = cpuSeconds(runner.pid);
        stepsAtStart = runner.steps?.();
      }
    } else if ((performance.now() - measureStart) / 1000 >= latencySeconds) {
      cpuAtEnd = cpuSeconds(runner.pid);
      break;
    }
    // at most 2,000 records a request (a request must stay under the broker's message size when this process lags)
    const due = Math.min(Math.floor(rate * elapsed), sent + 2000);
    if (due <= sent) {
      await sleep(2);
      continue;
    }
    const messages = [];
    for (let i = sent; i < due; i++)
      messages.push({
        topic: input,
        key: Buffer.from(`${measuredFrom < 0 ? 'W' : 'L'}${i}`),
        value: Buffer.from(line(i)),
      });
    await producer.send({ messages, acks: ProduceAcks.LEADER });
    sent = due;
  }
  const warmupSeconds = (measureStart - started) / 1000;
  await lagCheck;
  const measured = sent - measuredFrom;
  const achieved = measured / ((performance.now() - measureStart) / 1000);
  await producer.close();
  while ((await committed(group, input)) < 100 + sent) await sleep(100);
  // the workers report every second: the last batches' steps are in the runner's histograms after that
  let steps: StepSnapshot | undefined;
  if (runner.steps) {
    await sleep(1200);
    const end = await runner.steps();
    if (end) steps = difference(end, await stepsAtStart);
  }
  await runner.stop();
  const appended = new Map(kcat(input).filter(([k]) => k.startsWith('L')));
  const latencies: number[] = [];
  for (const [key, ts] of kcat(output)) {
    const start = appended.get(key);
    if (start !== undefined) latencies.push(ts - start);
  }
  latencies.sort((x, y) => x - y);
  console.log(
    `latency ${who.padEnd(13)} at ${fmtRate(achieved)} events/s for ${latencySeconds} s after ${warmupSeconds.toFixed(1)} s of warm-up (${measured.toLocaleString('en-US')} events, ` +
      `${latencies.length.toLocaleString('en-US')} outputs): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms; ` +
      `${fmtCpu(((cpuAtEnd - cpuAtStart) / measured) * 1e6)} CPU-s per 1M while measured`,
  );
  // Weir: where the time went, per step, from the measured seconds on (one observation per batch;
  // the ages are those of each batch's oldest record, input append time → now)
  if (steps) for (const l of describeSteps(steps)) console.log(l);
}

/** Weir's process with 10,000 rules (all listed by APPLY_RULES) and a 1,000,000-row lookup table the enrich task uses. */
async function memory(input: string): Promise<void> {
  await createTopics(['out-mem', 'alerts-mem']);
  const runner = weir('reference', 'bench-mem', input, 'out-mem', 'alerts-mem', {
    rules: 10_000,
    lookupRows: 1_000_000,
  });
  const m = await measure(runner, 'bench-mem', input, 'out-mem');
  console.log(
    `memory: Weir reference with 10,000 rules and a 1,000,000-row lookup: resident max ${Math.round(m.rssMaxMiB)} MiB; ` +
      `at first output / half / end ${m.rssSteps.map(Math.round).join(' / ')} MiB; ${fmtRate(m.rate)} events/s, ${fmtCpu(m.cpuPerMillion)} CPU-s per 1M`,
  );
}

async function main(): Promise<void> {
  dir = mkdtempSync(path.join(os.tmpdir(), 'weir-bench-engine-'));
  rulesFile = path.join(dir, 'rules.json');
  writeFileSync(rulesFile, JSON.stringify(benchRules()));
  // the Kafka Streams peer is built only for the parts that run it
  if (![...parts].every((p) => ['compare', 'rss', 'profile', 'suppression', 'sigma', 'tables'].includes(p)))
    buildPeer();
  const broker = new EmbeddedBroker({ dir, internalPartitions: 1 });
  bootstrap = await broker.start();
  brokerPid = broker.pid;
  // interrupted: the broker (a JVM of its own) must not outlive the bench
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void broker.stop().finally(() => process.exit(1)));
  admin = new Admin({ clientId: 'bench-admin', bootstrapBrokers: [bootstrap] });
  try {
    const input = 'bench-in';
    await createTopics([input]);
    const t = performance.now();
    // the sigma and tables parts load inputs of their own
    const reference = ![...parts].every((p) => p === 'sigma' || p === 'tables');
    if (reference) await load(input, 0, events, (j) => `k${j % 1000}`);
    console.log(
      `loaded ${reference ? events.toLocaleString('en-US') : 0} events in ${((performance.now() - t) / 1000).toFixed(1)} s; ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    let bestReference = Number(process.env.WEIR_BENCH_LATENCY_RATE ?? 0) * 2;
    if (parts.has('throughput')) bestReference = await throughput(input);
    if (parts.has('compare')) await compare(input);
    if (parts.has('suppression')) await suppressionCost(input);
    if (parts.has('latency')) {
      // a low rate (the pipeline mostly idle: what one record waits) and half of the best rate (under load)
      for (const rate of [lowLatencyRate, Math.round((bestReference || 20_000) / 2)]) {
        await latency('weir', rate);
        await latency('kafka-streams', rate);
      }
    }
    if (parts.has('memory')) await memory(input);
    if (parts.has('rss')) {
      // Weir's reference pipeline alone, for its resident memory (with WEIR_BENCH_WORKER_HEAP_MB to bound the worker heaps)
      await createTopics(['out-rss', 'alerts-rss']);
      const m = await measure(
        weir('reference', 'bench-rss', input, 'out-rss', 'alerts-rss'),
        'bench-rss',
        input,
        'out-rss',
      );
      console.log(
        `rss run, Weir reference (worker old generation limit: ${process.env.WEIR_BENCH_WORKER_HEAP_MB === undefined ? `the engine's default, weir.stream.worker-heap-mb=${settingDefinitions['weir.stream.worker-heap-mb'].default} MB` : Number(process.env.WEIR_BENCH_WORKER_HEAP_MB) > 0 ? `${process.env.WEIR_BENCH_WORKER_HEAP_MB} MB` : "V8's default"}; young generation limit: ${process.env.WEIR_BENCH_WORKER_YOUNG_MB === undefined ? "the engine's, derived from the old generation's" : Number(process.env.WEIR_BENCH_WORKER_YOUNG_MB) > 0 ? `${process.env.WEIR_BENCH_WORKER_YOUNG_MB} MB` : "V8's own"}): resident at first output / half / end ` +
          `${m.rssSteps.map(Math.round).join(' / ')} MiB, max ${Math.round(m.rssMaxMiB)} MiB; ${fmtRate(m.rate)} events/s, ${fmtCpu(m.cpuPerMillion)} CPU-s per 1M`,
      );
    }
    const context: PartContext = { bootstrap, admin, dir, partitions, events, createTopics, endOffset, measure, log };
    if (parts.has('sigma')) await sigmaPart(context);
    if (parts.has('tables')) await tablesPart(context);
    if (parts.has('profile')) {
      // WEIR_BENCH_CPU_PROF=<dir> makes the runner's worker threads write .cpuprofile files there
      await createTopics(['out-prof']);
      const m = await measure(
        weir('passthrough', 'bench-prof', input, 'out-prof', 'alerts-prof'),
        'bench-prof',
        input,
        'out-prof',
      );
      console.log(
        `profile run, Weir passthrough: ${fmtRate(m.rate)} events/s, ${fmtCpu(m.cpuPerMillion)} CPU-s per 1M, commit every ${m.cadenceMs?.toFixed(1)} ms per thread`,
      );
    }
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await admin.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
