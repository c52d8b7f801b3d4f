/**
 * Weir's side of bench/engine.ts, in a process of its own (so its CPU time and resident memory can
 * be read from /proc/<pid>): `threads` stream worker threads, started as the engine starts them
 * (packages/engine/src/stream/worker-thread.ts, one consumer group), configured with the bench's
 * snapshot. Forked by bench/engine.ts with a JSON argument; reports the offset commits the workers
 * made (`weir_offset_commits_total`), answers `{ type: 'metrics' }` with the step histograms the
 * workers' reports fed (engine-metrics.ts, the node's own registry: bench/step-metrics.ts) and stops on `{ type: 'stop' }`.
 * `WEIR_BENCH_CPU_PROF=<dir>` profiles every worker thread (`--cpu-prof`); `WEIR_BENCH_WORKER_HEAP_MB` limits their old generation,
 * `WEIR_BENCH_WORKER_YOUNG_MB` their young generation (else both as the engine limits them; 0: V8's own);
 * `WEIR_BENCH_WORKER_FLAGS` (space-separated) adds node flags to the worker threads' `execArgv` (e.g. `--import=<a preload>`);
 * `WEIR_BENCH_BATCH_TARGET_MS` sets weir.stream.batch-target-ms and `WEIR_BENCH_COMMIT_INTERVAL_MS` commit.interval.ms (default: the settings' defaults).
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { settingDefinitions } from '../packages/engine/src/config/settings.ts';
import { setWorkerGcFlag, youngGenerationMb } from '../packages/engine/src/stream/worker-limits.ts';
import { LookupIndexServer } from '../packages/engine/src/rules/lookup-index-server.ts';
import { moveLookupJson } from '../packages/engine/src/rules/lookup-json.ts';
import { forWorkers, type ConfigSnapshot } from '../packages/engine/src/stream/config-snapshot.ts';
import type { FromWorker, ToWorker, WorkerInit } from '../packages/engine/src/stream/worker-protocol.ts';
import { EngineMetrics } from '../packages/engine/src/stream/engine-metrics.ts';
import { benchRules, snapshot, storedLookupJson, type Scenario } from './engine-workload.ts';
import { snapshotOf, stepMetrics, type StepSnapshot } from './step-metrics.ts';

export interface WeirRunnerOptions {
  readonly bootstrap: string;
  readonly group: string;
  readonly scenario: Scenario;
  readonly input: string;
  readonly output: string;
  readonly alertsTopic: string;
  readonly threads: number;
  /** Rules listed by APPLY_RULES (100 in the reference pipeline). */
  readonly rules?: number;
  /** Rows of a lookup table the enrich task also looks the source address up in (memory figures). */
  readonly lookupRows?: number;
  /** At the stop, log the V8 heap of the main thread and of each worker thread first (`heaps: …`; the `tables` part). */
  readonly heapReport?: boolean;
  /** A configuration snapshot (JSON) to run instead of the scenario's (the `sigma` part: bench/engine-sigma.ts). */
  readonly snapshotFile?: string;
  /** A suppression window (`5m`): every rule gets `suppression: {fields: ['user'], window}` (the `suppression` part). */
  readonly suppression?: string;
}

/** What the runner tells its parent. */
export type WeirRunnerMessage =
  | { readonly type: 'stats'; readonly batches: number; readonly records: number }
  | { readonly type: 'log'; readonly message: string }
  | { readonly type: 'metrics'; readonly snapshot: StepSnapshot }
  | { readonly type: 'stopped' };

const options = JSON.parse(process.argv[2]!) as WeirRunnerOptions;
const send = (message: WeirRunnerMessage) => {
  if (process.connected) process.send!(message);
};

function benchSnapshot(): ConfigSnapshot {
  if (options.snapshotFile) return JSON.parse(readFileSync(options.snapshotFile, 'utf8')) as ConfigSnapshot;
  const rules = benchRules(options.rules ?? 100);
  const rows = options.lookupRows ?? 0;
  const plain = snapshot(options.scenario, options.input, options.output, rules);
  const window = options.suppression;
  const base = window
    ? { ...plain, rules: plain.rules.map((r) => ({ ...r, suppression: { fields: ['user'], window } })) }
    : plain;
  if (rows === 0) return base;
  const tasks = base.tasks.map((t) =>
    t.name === 'enrich'
      ? { ...t, definition: { pdl: `${(t.definition as { pdl: string }).pdl} | lookup assets ip AS src OUTPUT owner` } }
      : t,
  );
  // as the engine does it (config-snapshot.ts, workerSnapshot): from the stored JSON bytes, no row
  // as an object, the bytes freed once copied
  const { lookups: _, ...rest } = base;
  return { ...rest, tasks, sharedLookups: [moveLookupJson(storedLookupJson('assets', rows))] };
}

const profile = process.env.WEIR_BENCH_CPU_PROF;
/**
 * Each worker thread's old-generation limit (Worker `resourceLimits`): the engine's own, the default
 * of `weir.stream.worker-heap-mb`, unless WEIR_BENCH_WORKER_HEAP_MB says otherwise (0: V8's default).
 */
const heapMb = Number(
  process.env.WEIR_BENCH_WORKER_HEAP_MB ?? settingDefinitions['weir.stream.worker-heap-mb'].default ?? 0,
);
const batchTarget = process.env.WEIR_BENCH_BATCH_TARGET_MS;
const commitInterval = process.env.WEIR_BENCH_COMMIT_INTERVAL_MS;
/**
 * Each worker thread's young-generation limit (`resourceLimits.maxYoungGenerationSizeMb`): the
 * engine's, derived from the old generation's (stream/worker-limits.ts), unless
 * WEIR_BENCH_WORKER_YOUNG_MB says otherwise (0: V8's own).
 */
const youngMb = Number(process.env.WEIR_BENCH_WORKER_YOUNG_MB ?? (heapMb > 0 ? youngGenerationMb(heapMb) : 0));
const execArgv = [
  '--disable-warning=ExperimentalWarning',
  ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
  ...(process.env.WEIR_BENCH_WORKER_FLAGS ?? '').split(' ').filter((f) => f !== ''),
];
// as the engine posts it: each lookup once, in shared memory (config-snapshot.ts, workerSnapshot / forWorkers)
const config = forWorkers(benchSnapshot());
// and the column indexes of the lookups once, on this thread, for every worker (rules/lookup-index-server.ts)
const indexes = new LookupIndexServer();
indexes.share(config.sharedLookups ?? []);
/** The workers' offset commits (named `batches` in the messages: a WEIR_BENCH_BEFORE checkout's runner sends its batches, one commit each). */
let batches = 0;
let records = 0;
/** The workers' reports, as the engine takes them in (for the step histograms). */
const metrics = new EngineMetrics();
// as the engine does before its first worker thread (`--no-external-memory-accounted-in-global-limit` in WEIR_BENCH_NODE_FLAGS: without)
setWorkerGcFlag();
const workers = Array.from({ length: options.threads }, (_, index) => {
  const init: WorkerInit = {
    index,
    bootstrapServers: options.bootstrap,
    kafkaClient: {},
    clientId: `${options.group}-StreamThread-${index + 1}`,
    groupId: options.group,
    group: 'default',
    guarantee: 'at_least_once',
    transactionalId: `${options.group}-${index}`,
    alertsTopic: options.alertsTopic,
    outputNames: 'weir',
    ...(batchTarget ? { batchTargetMs: Number(batchTarget) } : {}),
    ...(commitInterval ? { commitIntervalMs: Number(commitInterval) } : {}),
  };
  const lookupIndexes = indexes.channel();
  const thread = new Worker(new URL('../packages/engine/src/stream/worker-thread.ts', import.meta.url), {
    workerData: { ...init, lookupIndexes } satisfies WorkerInit,
    transferList: [lookupIndexes.port],
    execArgv,
    resourceLimits: {
      ...(heapMb > 0 ? { maxOldGenerationSizeMb: heapMb } : {}),
      ...(youngMb > 0 ? { maxYoungGenerationSizeMb: youngMb } : {}),
    },
  });
  const stopped = new Promise<void>((resolve) => {
    thread.on('message', (message: FromWorker) => {
      if (message.type === 'stats') {
        metrics.report(message.report);
        // one commit may cover several batches (write-pipeline.ts): the commits are counted, not the batches
        for (const [name, , delta] of message.report.counters) {
          if (name === 'weir_records_in_total') records += delta;
          else if (name === 'weir_offset_commits_total') batches += delta;
        }
      } else if (message.type === 'log' && message.level !== 'info') {
        send({ type: 'log', message: `[stream-${index + 1}] ${message.message}` });
      } else if (message.type === 'stopped') {
        resolve();
      }
    });
    thread.on('exit', () => resolve());
  });
  const post = (message: ToWorker) => thread.postMessage(message);
  post({ type: 'configure', snapshot: config });
  post({ type: 'start' });
  return { thread, stopped, post };
});

const timer = setInterval(() => send({ type: 'stats', batches, records }), 250);
// the bench went away without a stop: stop anyway, so no runner outlives it
process.on('disconnect', () => stop());
process.on('message', (message: { type: string }) => {
  if (message.type === 'stop') stop();
  else if (message.type === 'metrics') void sendSteps();
});

async function sendSteps(): Promise<void> {
  const got = await Promise.all(
    stepMetrics.map(async (name) => ({ name, got: await metrics.registry.getSingleMetric(name)!.get() })),
  );
  send({ type: 'metrics', snapshot: snapshotOf(got) });
}

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  const stopWorkers = () => {
    for (const w of workers) w.post({ type: 'stop' });
  };
  // a report that fails (a worker gone) still stops the others
  void (options.heapReport ? reportHeaps() : Promise.resolve()).then(stopWorkers, stopWorkers);
  void Promise.all(workers.map((w) => w.stopped)).then(async () => {
    // the last stats report comes with 'stopped'
    send({ type: 'stats', batches, records });
    clearInterval(timer);
    await Promise.all(workers.map((w) => w.thread.terminate()));
    send({ type: 'stopped' });
    if (process.connected) process.disconnect();
  });
}

/**
 * The heaps of the main thread and of each worker thread (MiB used / total), the main thread's array
 * buffers, and where the process's resident memory is: each worker's V8 heap pages resident, the
 * memory V8 allocated with malloc and the external memory (Buffers) it was told of; the process's
 * resident anonymous, file-backed and shared pages (/proc/self/status).
 */
async function reportHeaps(): Promise<void> {
  const mib = (n: number) => Math.round(n / 2 ** 20);
  const main = process.memoryUsage();
  const heaps = await Promise.all(workers.map((w) => w.thread.getHeapStatistics()));
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
  // with NODE_OPTIONS=--expose-gc: the main thread's heap after a full collection too (how much of it is garbage)
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const collected = gc ? `, after a full collection ${mib(process.memoryUsage().heapUsed)} MiB used` : '';
  send({
    type: 'log',
    message:
      `heaps: main thread ${mib(main.heapUsed)}/${mib(main.heapTotal)} MiB${collected} (array buffers ${mib(main.arrayBuffers)} MiB); ` +
      `worker threads ${heaps.map((h) => `${mib(h.used_heap_size)}/${mib(h.total_heap_size)}`).join(', ')} MiB (used/total); ` +
      `worker heaps resident ${heaps.map((h) => mib(h.total_physical_size)).join(', ')} MiB, ` +
      `malloced ${heaps.map((h) => mib(h.malloced_memory)).join(', ')} MiB, external ${heaps.map((h) => mib(h.external_memory)).join(', ')} MiB; ` +
      `process resident: anonymous ${kb('RssAnon')} MiB, file ${kb('RssFile')} MiB, shared ${kb('RssShmem')} MiB`,
  });
}
