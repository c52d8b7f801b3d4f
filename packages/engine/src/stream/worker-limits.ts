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
