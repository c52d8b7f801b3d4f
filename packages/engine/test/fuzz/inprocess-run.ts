import { Worker } from 'node:worker_threads';
import type { WorkerInput, WorkerResult } from './inprocess-worker.ts';

/** One input taking longer than this is a hang (the worker is stopped and the input named). */
export const inputTimeoutMs = 20_000;

/**
 * Runs `count` inputs of an in-process target in a worker thread and returns its counts; rejects
 * naming the input index when one input takes longer than inputTimeoutMs (replay it with the seed).
 */
export function runInProcess(target: WorkerInput['target'], seed: number, count: number): Promise<WorkerResult> {
  const progress = new SharedArrayBuffer(4);
  const at = new Int32Array(progress);
  const worker = new Worker(new URL('./inprocess-worker.ts', import.meta.url), {
    workerData: { target, seed, count, progress } satisfies WorkerInput,
  });
  return new Promise((resolve, reject) => {
    let last = -1;
    let since = Date.now();
    const watch = setInterval(() => {
      const now = Atomics.load(at, 0);
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since > inputTimeoutMs) {
        clearInterval(watch);
        void worker.terminate();
        reject(new Error(`${target}: input ${now} of seed ${seed} took more than ${inputTimeoutMs} ms (a hang)`));
      }
    }, 500);
    worker.once('message', (result: WorkerResult) => {
      clearInterval(watch);
      resolve(result);
    });
    worker.once('error', (err) => {
      clearInterval(watch);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearInterval(watch);
      reject(
        new Error(`${target}: the worker exited (code ${code}) during input ${Atomics.load(at, 0)} of seed ${seed}`),
      );
    });
  });
}
