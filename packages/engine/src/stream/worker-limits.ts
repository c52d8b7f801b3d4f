import type { ResourceLimits } from 'node:worker_threads';

/**
 * A stream worker thread's V8 limits from `weir.stream.worker-heap-mb` (docs/configuration.md):
 * the old generation at the setting, and the young generation derived from it, 1/64 of it between
 * 8 and 32 MB (16 MB at the default 1,024). V8's own young generation for a thread grows to ~48 MB
 * while the engine's modules load and stays there, and a large one lets the old generation grow
 * further before it is collected (bench/RESULTS.md, issue 24, `tables`). 0: V8's defaults for both.
 */
export function workerResourceLimits(heapMb: number): ResourceLimits | undefined {
  if (heapMb <= 0) return undefined;
  return { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngGenerationMb(heapMb) };
}

/** The young generation's limit for an old generation of `heapMb`. */
export function youngGenerationMb(heapMb: number): number {
  return Math.min(32, Math.max(8, Math.round(heapMb / 64)));
}
