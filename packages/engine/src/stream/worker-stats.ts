/**
 * Counters a stream worker keeps between two reports to the engine (deltas), keyed by metric and
 * label values. The hot path does a few Map lookups and an addition per increment and allocates
 * nothing once a label combination has been seen (cells are nested by label, not keyed by a joined string).
 */
export interface StatsReport {
  readonly counters: [name: string, labels: string[], delta: number][];
  readonly latencies: number[];
  readonly lag: [topic: string, partition: number, lag: number][];
}

interface Cell {
  readonly name: string;
  readonly labels: string[];
  value: number;
}

type Level = Map<string, Level | Cell>;

export class WorkerStats {
  readonly #root: Level = new Map();
  readonly #cells: Cell[] = [];
  #latencies: number[] = [];
  #lag: StatsReport['lag'] = [];

  add(name: string, labels: readonly string[], delta = 1): void {
    let level = this.#root.get(name) as Level | undefined;
    if (level === undefined) this.#root.set(name, (level = new Map()));
    for (let i = 0; i < labels.length - 1; i++) {
      let next = level.get(labels[i]!) as Level | undefined;
      if (next === undefined) level.set(labels[i]!, (next = new Map()));
      level = next;
    }
    const last = labels.length > 0 ? labels[labels.length - 1]! : '';
    let cell = level.get(last) as Cell | undefined;
    if (cell === undefined) {
      cell = { name, labels: [...labels], value: 0 };
      level.set(last, cell);
      this.#cells.push(cell);
    }
    cell.value += delta;
  }

  latency(seconds: number): void {
    if (this.#latencies.length < 10_000) this.#latencies.push(seconds);
  }

  lag(entries: StatsReport['lag']): void {
    this.#lag = entries;
  }

  /** The deltas since the last report, then starts over (label combinations are remembered). */
  drain(): StatsReport {
    const counters: StatsReport['counters'] = [];
    for (const cell of this.#cells) {
      if (cell.value !== 0) {
        counters.push([cell.name, cell.labels, cell.value]);
        cell.value = 0;
      }
    }
    const report: StatsReport = { counters, latencies: this.#latencies, lag: this.#lag };
    this.#latencies = [];
    return report;
  }
}
