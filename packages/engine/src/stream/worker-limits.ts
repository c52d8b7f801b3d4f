import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * A stream worker thread's V8 limits from `weir.stream.worker-heap-mb` (docs/configuration.md):
 * the old generation at the setting, and the young generation derived from it, 1/16 of it between
 * 8 and 64 MB (64 MB at the default 1,024). V8's own young generation is larger, and with it a
 * worker's heap grows ~60 MiB further before it is collected; 64 MB gives most of that back at no
 * measured cost in CPU, where 16 or 32 MB give back more but cost 10–20 % more CPU per event
 * (bench/RESULTS.md, issue 24, `tables`). 0: V8's defaults for both.
 */
export function workerResourceLimits(heapMb: number): ResourceLimits | undefined {
  if (heapMb <= 0) return undefined;
  return { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngGenerationMb(heapMb) };
}

/** The young generation's limit for an old generation of `heapMb`. */
export function youngGenerationMb(heapMb: number): number {
  return Math.min(64, Math.max(8, Math.round(heapMb / 16)));
}

/** V8's flag that counts the memory of Buffers (off the V8 heap) in the heap's own growing limit. */
export const externalMemoryFlag = 'external-memory-accounted-in-global-limit';

/**
 * The V8 flag the stream worker threads run with, unless the process's command line names it
 * (`--${externalMemoryFlag}` or `--no-${externalMemoryFlag}`, either spelling): undefined then.
 * Without it V8 starts a full collection of a thread's heap each time ~64 MB of Buffers were
 * made since the last one, whatever the heap's size: a stream thread makes several KB of Buffers
 * per event (the records read, written and encoded), so a worker thread holding a large rule set
 * marked its whole heap every ~1.5 s; with it, Buffers count toward the heap's limit, which grows
 * with the heap (bench/RESULTS.md, issue 24, "GC and garbage": SigmaHQ through the engine
 * 8–16 % less CPU per event, +13–17 % resident memory; +1–5 % events/s on a quiet machine).
 */
export function gcFlag(execArgv: readonly string[]): string | undefined {
  const named = execArgv.some((a) => /^--(no-)?external[-_]memory[-_]accounted[-_]in[-_]global[-_]limit$/.test(a));
  return named ? undefined : `--${externalMemoryFlag}`;
}

let flagged = false;

/**
 * Sets gcFlag's flag for this process, once, before the first worker thread starts (V8's flags
 * are per process; an isolate made afterwards, i.e. each worker thread, has it from its start).
 */
export function setWorkerGcFlag(): void {
  if (flagged) return;
  flagged = true;
  const flag = gcFlag(process.execArgv);
  if (flag !== undefined) setFlagsFromString(flag);
}
