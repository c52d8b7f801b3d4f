/**
 * The processes bench/engine.ts measures: Weir's runner (bench/engine-weir.ts, forked) and the
 * Kafka Streams peer (bench/peers/kafka-streams, a JVM), with their CPU time and resident memory
 * read from /proc/<pid>.
 */
import { spawn, spawnSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { WeirRunnerMessage, WeirRunnerOptions } from './engine-weir.ts';
import type { StepSnapshot } from './step-metrics.ts';

const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** User + system CPU seconds of a process (all its threads), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

/** Resident memory in MiB, from /proc/<pid>/status (VmRSS). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) / 1024 : 0;
}

/** A measured process: its pid, a counter of its offset commits (Weir only), how to stop it. */
export interface Runner {
  readonly pid: number;
  readonly name: string;
  /** Weir: offset commits so far (`weir_offset_commits_total`; one per batch in checkouts without it). */
  batches(): number;
  /** Weir: its step histograms now (bench/step-metrics.ts); undefined from a runner that does not answer within 3 s (a WEIR_BENCH_BEFORE checkout's). */
  steps?(): Promise<StepSnapshot | undefined>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * `checkout`: another checkout of the repository (WEIR_BENCH_BEFORE) whose bench/engine-weir.ts and
 * engine run instead of this one's, for a before/after comparison in one run.
 * `WEIR_BENCH_NODE_FLAGS` (space-separated, e.g. `--single-threaded-gc`): node/V8 flags for the
 * runner's process only (V8's flags are per process: its worker threads run with them too).
 */
export function startWeir(options: WeirRunnerOptions, onLog: (line: string) => void, checkout?: string): Runner {
  const runner = checkout
    ? path.join(checkout, 'bench', 'engine-weir.ts')
    : new URL('./engine-weir.ts', import.meta.url);
  const child = fork(runner, [JSON.stringify(options)], {
    execArgv: ['--disable-warning=ExperimentalWarning', ...nodeFlags()],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let batches = 0;
  let stepWaiters: ((snapshot: StepSnapshot | undefined) => void)[] = [];
  child.on('message', (message: WeirRunnerMessage) => {
    if (message.type === 'stats') batches = message.batches;
    else if (message.type === 'log') onLog(message.message);
    else if (message.type === 'metrics') {
      for (const resolve of stepWaiters) resolve(message.snapshot);
      stepWaiters = [];
    }
  });
  return {
    pid: child.pid!,
    name: 'weir',
    batches: () => batches,
    steps: () =>
      new Promise((resolve) => {
        stepWaiters.push(resolve);
        child.send({ type: 'metrics' });
        setTimeout(() => resolve(undefined), 3000);
      }),
    async stop() {
      const done = exited(child);
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/** WEIR_BENCH_NODE_FLAGS, split at spaces. */
function nodeFlags(): string[] {
  return (process.env.WEIR_BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
}

export const peerDir = path.join(import.meta.dirname, 'peers', 'kafka-streams');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Compiles the peer when its classes are missing or older than its sources (offline first: ~/.m2 holds the jars once fetched). */
export function buildPeer(): void {
  const classes = path.join(peerDir, 'target', 'classes', 'dev', 'weir', 'bench', 'Main.class');
  const lib = path.join(peerDir, 'target', 'lib');
  const sources = Math.max(newestMtime(path.join(peerDir, 'src')), statSync(path.join(peerDir, 'pom.xml')).mtimeMs);
  if (existsSync(classes) && existsSync(lib) && statSync(classes).mtimeMs >= sources) return;
  const goals = ['-q', '-B', 'compile', 'dependency:copy-dependencies'];
  let result = spawnSync('mvn', ['-o', ...goals], { cwd: peerDir, encoding: 'utf8' });
  if (result.status !== 0) result = spawnSync('mvn', goals, { cwd: peerDir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building ${peerDir} failed:\n${result.stdout}${result.stderr}`);
}

export function startPeer(
  mode: 'raw' | 'passthrough' | 'reference',
  args: Record<string, string | number>,
  onLog: (line: string) => void,
): Runner {
  const classpath = `${path.join(peerDir, 'target', 'classes')}:${path.join(peerDir, 'target', 'lib', '*')}`;
  const child = spawn(
    'java',
    ['-cp', classpath, 'dev.weir.bench.Main', mode, ...Object.entries(args).map(([k, v]) => `${k}=${v}`)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const forward = (data: Buffer) => {
    for (const line of data.toString('utf8').split('\n')) if (line.trim() && !line.startsWith('STARTED')) onLog(line);
  };
  child.stdout!.on('data', forward);
  child.stderr!.on('data', forward);
  return {
    pid: child.pid!,
    name: `kafka-streams ${mode}`,
    batches: () => 0,
    async stop() {
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await done;
      clearTimeout(timer);
    },
  };
}
