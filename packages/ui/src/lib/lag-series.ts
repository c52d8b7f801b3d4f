import type { LagHistory } from '@weir/client';

/** One line of the lag chart: the group's total, or one partition's lag, over time. */
export interface LagLine {
  readonly label: string;
  /** SVG polyline points in the chart's box. */
  readonly points: string;
  readonly latest: number;
}

export interface LagChartModel {
  readonly lines: readonly LagLine[];
  /** The highest lag shown (the top of the y axis; at least 1). */
  readonly max: number;
  /** The time span covered: first and last sample (ms since the epoch). */
  readonly from: number;
  readonly to: number;
}

/**
 * The lag chart's lines from a group's lag history (GET /api/consumer-groups/{id}/lag-history): the
 * total, then each partition (`topic[p]`) that had lag in any sample, at most `maxPartitions` of
 * them (the most lagging last), scaled into a `width` × `height` box (y grows downwards).
 */
export function lagChartModel(history: LagHistory, width: number, height: number, maxPartitions = 8): LagChartModel {
  const samples = history.samples;
  const times = samples.map((s) => Date.parse(s.time));
  const from = times[0] ?? 0;
  const to = times.at(-1) ?? 0;
  const span = Math.max(1, to - from);
  const series = new Map<string, number[]>();
  series.set(
    'total',
    samples.map((s) => s.lag),
  );
  const peaks = new Map<string, number>();
  samples.forEach((s, i) => {
    for (const p of s.partitions) {
      const key = `${p.topic}[${p.partition}]`;
      const values = series.get(key) ?? new Array<number>(samples.length).fill(0);
      values[i] = p.lag;
      series.set(key, values);
      peaks.set(key, Math.max(peaks.get(key) ?? 0, p.lag));
    }
  });
  const partitions = [...peaks]
    .filter(([, peak]) => peak > 0)
    .sort(([a, pa], [b, pb]) => pb - pa || a.localeCompare(b))
    .slice(0, maxPartitions)
    .map(([key]) => key)
    .sort();
  const max = Math.max(1, ...series.get('total')!);
  const x = (i: number) => (samples.length === 1 ? width : ((times[i]! - from) / span) * width);
  const y = (v: number) => height - (v / max) * height;
  const line = (label: string): LagLine => {
    const values = series.get(label)!;
    return {
      label,
      points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
      latest: values.at(-1) ?? 0,
    };
  };
  return { lines: ['total', ...partitions].map(line), max, from, to };
}
