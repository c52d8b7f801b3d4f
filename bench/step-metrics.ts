/**
 * The stream runtime's step histograms (`weir_record_age_seconds`, `weir_batch_step_seconds`,
 * docs/engine.md "Metrics") as bench/engine.ts reads them from Weir's runner: bucket counts per
 * metric and step, the difference of two snapshots (the measured seconds only), and the p50/p99 of
 * each, interpolated within its bucket as Prometheus' histogram_quantile does.
 */
import { metricNames } from '../packages/engine/src/stream/metric-names.ts';

/** Cumulative bucket counts per `metric step` (le → count, +Inf last). */
export type StepSnapshot = Record<string, [le: number, count: number][]>;

/** The names of the step histograms, the engine's own (metric-names.ts). */
export const stepMetrics = [metricNames.recordAge, metricNames.batchStep] as const;

interface HistogramValues {
  readonly values: {
    readonly value: number;
    readonly labels: Partial<Record<string, string | number>>;
    readonly metricName?: string;
  }[];
}

/** A snapshot from prom-client's `histogram.get()` of each step metric. */
export function snapshotOf(metrics: readonly { readonly name: string; readonly got: HistogramValues }[]): StepSnapshot {
  const snapshot: StepSnapshot = {};
  for (const { name, got } of metrics)
    for (const v of got.values) {
      if (v.metricName !== `${name}_bucket`) continue;
      const key = `${name} ${String(v.labels.step)}`;
      const le = v.labels.le === '+Inf' ? Infinity : Number(v.labels.le);
      (snapshot[key] ??= []).push([le, v.value]);
    }
  for (const buckets of Object.values(snapshot)) buckets.sort((a, b) => a[0] - b[0]);
  return snapshot;
}

/** What was observed between `before` and `after`. */
export function difference(after: StepSnapshot, before: StepSnapshot | undefined): StepSnapshot {
  const out: StepSnapshot = {};
  for (const [key, buckets] of Object.entries(after)) {
    const earlier = new Map(before?.[key] ?? []);
    out[key] = buckets.map(([le, count]) => [le, count - (earlier.get(le) ?? 0)]);
  }
  return out;
}

/** The q-quantile (0..1) in seconds, linear within its bucket; Infinity when it falls in +Inf. */
export function quantile(buckets: readonly [number, number][], q: number): number {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return Infinity;
      return count === below ? le : lower + ((le - lower) * (rank - below)) / (count - below);
    }
    lower = le;
    below = count;
  }
  return Infinity;
}

/** The upper bound of the highest bucket with an observation (Infinity: above the last bound). */
export function highest(buckets: readonly [number, number][]): number {
  const total = buckets.at(-1)?.[1] ?? 0;
  return buckets.find(([, count]) => count === total)?.[0] ?? Infinity;
}

const ms = (seconds: number) => (Number.isFinite(seconds) ? `${(seconds * 1000).toFixed(1)}` : '>60000');

/** One line per metric: each step's p50 / p99 in ms, the bucket of its largest observation, and its observations. */
export function describeSteps(snapshot: StepSnapshot): string[] {
  const order = [
    'taken',
    'processed',
    'acknowledged',
    'backpressure',
    'process',
    'write_wait',
    'commit_wait',
    'produce',
    'commit',
  ];
  return stepMetrics.map((name) => {
    const steps = Object.keys(snapshot)
      .filter((k) => k.startsWith(`${name} `))
      .map((k) => k.slice(name.length + 1))
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const parts = steps.map((step) => {
      const buckets = snapshot[`${name} ${step}`]!;
      const n = buckets.at(-1)?.[1] ?? 0;
      return `${step} p50 ${ms(quantile(buckets, 0.5))} / p99 ${ms(quantile(buckets, 0.99))} / max ≤ ${ms(highest(buckets))} ms (${n.toLocaleString('en-US')})`;
    });
    return `  ${name}: ${parts.join('; ') || 'none observed'}`;
  });
}
