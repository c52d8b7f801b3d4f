/**
 * Runs one in-process fuzz target in a worker thread, so that the test's thread can watch it: the
 * index of the input under way is kept in shared memory, and an input that takes too long is a hang.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { lookupTarget, pdlTarget, propertiesTarget, type InProcessTarget } from './inprocess-targets.ts';
import { Rng } from './rng.ts';

export interface WorkerInput {
  readonly target: 'pdl' | 'lookup' | 'properties';
  readonly seed: number;
  readonly count: number;
  /** Int32Array over it: [0] = index of the input under way. */
  readonly progress: SharedArrayBuffer;
}

export interface WorkerResult {
  readonly accepted: number;
  readonly rejected: number;
  readonly failures: readonly { index: number; input: string; error: string }[];
  readonly failureCount: number;
  readonly slowest: { index: number; ms: number; input: string };
}

const { target, seed, count, progress } = workerData as WorkerInput;
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-fuzz-'));
const targets: Record<WorkerInput['target'], () => InProcessTarget<never>> = {
  pdl: () => pdlTarget as InProcessTarget<never>,
  lookup: () => lookupTarget as InProcessTarget<never>,
  properties: () => propertiesTarget(dir) as InProcessTarget<never>,
};
const t = targets[target]();
const at = new Int32Array(progress);
const rng = new Rng(seed).fork(t.name);
let accepted = 0;
let rejected = 0;
let failureCount = 0;
const failures: { index: number; input: string; error: string }[] = [];
let slowest = { index: -1, ms: 0, input: '' };
for (let i = 0; i < count; i++) {
  const input = t.generate(rng);
  Atomics.store(at, 0, i);
  const started = performance.now();
  try {
    if (t.run(input) === 'accepted') accepted++;
    else rejected++;
  } catch (err) {
    failureCount++;
    if (failures.length < 20)
      failures.push({
        index: i,
        input: t.describe(input),
        error: (err as Error).stack?.split('\n').slice(0, 4).join(' / ') ?? String(err),
      });
  }
  const ms = performance.now() - started;
  if (ms > slowest.ms) slowest = { index: i, ms, input: t.describe(input) };
}
rmSync(dir, { recursive: true, force: true });
parentPort!.postMessage({ accepted, rejected, failures, failureCount, slowest } satisfies WorkerResult);
