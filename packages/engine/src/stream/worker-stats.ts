/**
 * Counters a stream worker keeps between two reports to the engine (deltas), keyed by metric and
 * label values. Plain maps: the hot path does one Map lookup and an addition per increment.
 */
export interface StatsReport {
  readonly counters: [name: string, labels: string[], delta: number][];
  readonly latencies: number[];
  readonly lag: [topic: string, partition: number, lag: number][];
}

export class WorkerStats {
  #counters = new Map<string, { name: string; labels: string[]; value: number }>();
  #latencies: number[] = [];
  #lag: StatsReport['lag'] = [];

  add(name: string, labels: string[], delta = 1): void {
    const key = `${name}\u0000${labels.join('\u0000')}`;
    const entry = this.#counters.get(key);
    if (entry) entry.value += delta;
    else this.#counters.set(key, { name, labels, value: delta });
  }

  latency(seconds: number): void {
    if (this.#latencies.length < 10_000) this.#latencies.push(seconds);
  }

  lag(entries: StatsReport['lag']): void {
    this.#lag = entries;
  }

  /** The deltas since the last report, then starts over. */
  drain(): StatsReport {
    const report: StatsReport = {
      counters: [...this.#counters.values()].filter((c) => c.value !== 0).map((c) => [c.name, c.labels, c.value]),
      latencies: this.#latencies,
      lag: this.#lag,
    };
    this.#counters = new Map();
    this.#latencies = [];
    return report;
  }
}
