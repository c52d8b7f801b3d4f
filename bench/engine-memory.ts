/**
 * bench/engine.ts, part `tables` (issue 24: "with a 1M-row lookup and 10,000 rules, resident memory
 * ≤ 1.5× the memory of the tables themselves, whatever the number of threads (measure 1, 2 and 4)").
 *
 * The memory of the tables themselves (bench/table-memory.ts, a bare Node process): the resident
 * growth, after a full collection, of holding ONE plain copy — the 1,000,000 rows as JS objects with
 * PDL's rows-table index on the looked-up column, and the 10,000 rules compiled once with the
 * APPLY_RULES task's RuleIndex over them, after 2,000 events of the reference pipeline. That is what
 * one thread costs when nothing is shared; the goal asks that N threads cost at most 1.5× that.
 *
 * Weir: the runner (bench/engine-weir.ts) with 1, 2 and 4 stream worker threads, each thread count
 * first idle (the passthrough topology on an empty topic, no rules, no tables: the fixed size of the
 * process), then under the reference load with the 10,000 rules (APPLY_RULES lists them all; the
 * 9,900 added never match) and the 1M-row lookup that the enrich task looks every event's `src` up
 * in — over N events of the reference input on a topic of 4 partitions of its own (so that every
 * one of 4 threads gets a partition, reads events and builds what a working thread builds).
 * Resident memory (VmRSS of the process, every thread) at its maximum from the start (the tables
 * loaded, compiled and indexed) and at the end; each against the tables' memory, and the growth over
 * the idle process against it too. At the end the runner also says the V8 heaps of its main and
 * worker threads (with `NODE_OPTIONS=--expose-gc`, the main thread's after a full collection too:
 * how much of it is garbage). A group that commits nothing for 2 minutes fails the part with every
 * partition's committed and end offsets (a worker stalled once; bench/RESULTS.md).
 * `WEIR_BENCH_TABLE_THREADS` (comma-separated, default `1,2,4`) picks the thread counts measured.
 */
import { spawnSync } from 'node:child_process';
import { Producer, ProduceAcks } from '@platformatic/kafka';
import type { PartContext } from './engine-part.ts';
import { residentMiB, startWeir, type Runner } from './engine-procs.ts';
import { line } from './engine-workload.ts';

const rows = 1_000_000;
const rules = 10_000;
const partitions = 4;
/** WEIR_BENCH_TABLE_THREADS: the thread counts measured, comma-separated (default 1,2,4). */
const threadCounts = (process.env.WEIR_BENCH_TABLE_THREADS ?? '1,2,4').split(',').map((t) => {
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`WEIR_BENCH_TABLE_THREADS: '${t}' is not a thread count (a whole number ≥ 1; e.g. 1,2,4)`);
  return n;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface TableMemory {
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly externalMiB: number;
  readonly sharedMiB: number;
}

/** bench/table-memory.ts in a process of its own. */
function tableMemory(): TableMemory {
  const result = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--disable-warning=ExperimentalWarning',
      new URL('./table-memory.ts', import.meta.url).pathname,
      String(rows),
      String(rules),
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`bench/table-memory.ts failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as TableMemory;
}

/** Per partition of the topic: the group's committed offset (0 when none), or the topic's end. */
async function partitionOffsets(ctx: PartContext, topic: string, group?: string): Promise<number[]> {
  const partitionIndexes = [...Array(partitions).keys()];
  const out = partitionIndexes.map(() => 0);
  if (group === undefined) {
    const [t] = await ctx.admin.listOffsets({
      topics: [
        { name: topic, partitions: partitionIndexes.map((partitionIndex) => ({ partitionIndex, timestamp: -1n })) },
      ],
    });
    for (const p of t?.partitions ?? []) out[p.partitionIndex] = Number(p.offset);
    return out;
  }
  const [result] = await ctx.admin.listConsumerGroupOffsets({
    groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes }] }] as never,
  });
  for (const t of result?.topics ?? [])
    for (const p of t.partitions) if (p.committedOffset > 0n) out[p.partitionIndex] = Number(p.committedOffset);
  return out;
}

/** Offsets summed over the topic's partitions: the group's committed ones, or the topic's end. */
async function offsets(ctx: PartContext, topic: string, group?: string): Promise<number> {
  return (await partitionOffsets(ctx, topic, group)).reduce((a, b) => a + b, 0);
}

/** Resident memory of an idle runner: sampled every 200 ms for `seconds`; the last and the largest sample. */
async function idle(runner: Runner, seconds: number): Promise<{ last: number; max: number }> {
  let max = 0;
  let last = 0;
  for (const end = Date.now() + seconds * 1000; Date.now() < end;) {
    last = residentMiB(runner.pid);
    max = Math.max(max, last);
    await sleep(200);
  }
  await runner.stop();
  return { last, max };
}

/** The runner under the reference load until its group committed the whole input: resident max and at the end, events/s. */
async function loaded(ctx: PartContext, runner: Runner, group: string, input: string, total: number) {
  const deadline = Date.now() + 15 * 60_000;
  let max = 0;
  const start = performance.now();
  let firstCommit = 0;
  // no commit for 2 minutes once started: a stalled worker (seen once; bench/RESULTS.md), said with each partition's offsets
  let last = { done: -1, at: Date.now() };
  for (;;) {
    max = Math.max(max, residentMiB(runner.pid));
    const done = await offsets(ctx, input, group);
    if (done > 0 && firstCommit === 0) firstCommit = performance.now();
    if (done >= total) break;
    if (done !== last.done) last = { done, at: Date.now() };
    else if (done > 0 && Date.now() - last.at > 120_000) {
      const committed = await partitionOffsets(ctx, input, group);
      const ends = await partitionOffsets(ctx, input);
      await runner.stop();
      throw new Error(
        `${group}: no commit for 2 minutes; committed / end per partition: ${committed.map((c, p) => `${p}: ${c} / ${ends[p]}`).join(', ')}`,
      );
    }
    if (Date.now() > deadline) throw new Error(`${group}: no end after 15 minutes`);
    await sleep(50);
  }
  const end = residentMiB(runner.pid);
  max = Math.max(max, end);
  const seconds = (performance.now() - firstCommit) / 1000;
  await runner.stop();
  return { max, end, startSeconds: (firstCommit - start) / 1000, rate: total / seconds };
}

export async function tablesPart(ctx: PartContext): Promise<void> {
  const tables = tableMemory();
  console.log(
    `tables: the memory of the tables themselves (bench/table-memory.ts: one plain copy, ${fmt(rows)} rows as JS objects + PDL's column index, ` +
      `${fmt(rules)} rules compiled + RuleIndex): resident ${fmt(tables.rssMiB)} MiB (V8 heap ${fmt(tables.heapMiB)} MiB); ` +
      `the same rows in the engine's shared memory: ${fmt(tables.sharedMiB)} MiB`,
  );
  const input = 'tables-in';
  const empty = 'tables-idle-in';
  await ctx.admin.createTopics({ topics: [input, empty], partitions, replicas: 1 });
  const producer = new Producer({ clientId: 'bench-tables-load', bootstrapBrokers: [ctx.bootstrap] });
  for (let i = 0; i < ctx.events; i += 10_000) {
    const messages = [];
    for (let j = i; j < Math.min(ctx.events, i + 10_000); j++)
      messages.push({ topic: input, key: Buffer.from(`k${j % 1000}`), value: Buffer.from(line(j)) });
    await producer.send({ messages, acks: ProduceAcks.LEADER });
  }
  await producer.close();
  for (const threads of threadCounts) {
    const base = { bootstrap: ctx.bootstrap, threads };
    await ctx.createTopics([`tables-out-${threads}`, `tables-alerts-${threads}`, `tables-idle-out-${threads}`]);
    const idleGroup = `bench-tables-idle-${threads}`;
    const rest = await idle(
      startWeir(
        {
          ...base,
          group: idleGroup,
          scenario: 'passthrough',
          input: empty,
          output: `tables-idle-out-${threads}`,
          alertsTopic: `tables-alerts-${threads}`,
          rules: 0,
        },
        ctx.log(idleGroup),
      ),
      10,
    );
    const group = `bench-tables-${threads}`;
    let heaps = '';
    const m = await loaded(
      ctx,
      startWeir(
        {
          ...base,
          group,
          scenario: 'reference',
          input,
          output: `tables-out-${threads}`,
          alertsTopic: `tables-alerts-${threads}`,
          rules,
          lookupRows: rows,
          heapReport: true,
        },
        (message) => {
          if (message.startsWith('heaps: ')) heaps = message.slice('heaps: '.length);
          else ctx.log(group)(message);
        },
      ),
      group,
      input,
      ctx.events,
    );
    const ratio = (x: number) => (x / tables.rssMiB).toFixed(2);
    console.log(
      `tables: ${threads} thread${threads > 1 ? 's' : ' '}: idle runner (no rules, no tables) ${fmt(rest.last)} MiB (max ${fmt(rest.max)}); ` +
        `with ${fmt(rules)} rules and the ${fmt(rows)}-row lookup under the reference load: resident max ${fmt(m.max)} MiB, at the end ${fmt(m.end)} MiB; ` +
        `÷ tables: max ${ratio(m.max)}, end ${ratio(m.end)} (goal ≤ 1.5: ${m.max <= 1.5 * tables.rssMiB ? 'met' : 'NOT met'}); ` +
        `over the idle runner ÷ tables: max ${ratio(m.max - rest.last)}, end ${ratio(m.end - rest.last)}; ` +
        `first commit after ${m.startSeconds.toFixed(1)} s, then ${fmt(m.rate)} events/s`,
    );
    console.log(`tables: ${threads} thread${threads > 1 ? 's' : ' '}: at the end, V8 heaps: ${heaps}`);
  }
}
