/**
 * Counters a stream worker keeps between two reports to the engine (deltas), keyed by metric and
 * label values. The hot path does a few Map lookups and an addition per increment and allocates
 * nothing once a label combination has been seen (cells are nested by label, not keyed by a joined string).
 */
export interface StatsReport {
  readonly counters: [name: string, labels: string[], delta: number][];
  readonly latencies: number[];
  /** Observations of the step histograms (weir_record_age_seconds, weir_batch_step_seconds), per metric and step. */
  readonly steps: [name: string, step: string, seconds: number[]][];
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
  /** The step observations since the last report: one array per metric and step, kept across reports. */
  readonly #steps = new Map<string, Map<string, number[]>>();
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

  /** One observation of a step histogram (per batch, not per record: at most 10,000 a metric and step between two reports). */
  observe(name: string, step: string, seconds: number): void {
    let steps = this.#steps.get(name);
    if (steps === undefined) this.#steps.set(name, (steps = new Map()));
    let values = steps.get(step);
    if (values === undefined) steps.set(step, (values = []));
    if (values.length < 10_000) values.push(seconds);
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
    const steps: StatsReport['steps'] = [];
    for (const [name, byStep] of this.#steps)
      for (const [step, values] of byStep)
        if (values.length > 0) {
          steps.push([name, step, values.slice()]);
          values.length = 0;
        }
    const report: StatsReport = { counters, latencies: this.#latencies, lag: this.#lag, steps };
    this.#latencies = [];
    return report;
  }
}
