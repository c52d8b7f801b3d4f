import type { GroupLag } from './consumer-groups.ts';

/** The lag of one group at one moment: the total and each partition's. */
export interface LagSample {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly lag: number;
  readonly partitions: readonly { readonly topic: string; readonly partition: number; readonly lag: number }[];
}

export interface LagSamplerOptions {
  /** Time between samples; 0 samples never. */
  readonly intervalMs: number;
  /** How long a sample is kept. */
  readonly keepMs: number;
  /** Most groups with a history; groups beyond it (by id order) are not sampled. */
  readonly maxGroups: number;
}

/**
 * The lag of every consumer group over time (issue 23: lag over time), sampled by each node on its
 * own (one list of groups, one offset fetch per group coordinator and one end-offset request per
 * partition leader per sample) and kept in memory: at most `keepMs / intervalMs` samples for each of
 * at most `maxGroups` groups. A group that is gone loses its history once its last sample expires.
 */
export class LagSampler {
  readonly #source: () => Promise<GroupLag[]>;
  readonly #options: LagSamplerOptions;
  readonly #now: () => number;
  readonly #histories = new Map<string, LagSample[]>();
  readonly #onError: (err: Error) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    source: () => Promise<GroupLag[]>,
    options: LagSamplerOptions,
    onError: (err: Error) => void,
    now: () => number = Date.now,
  ) {
    this.#source = source;
    this.#options = options;
    this.#onError = onError;
    this.#now = now;
  }

  get options(): LagSamplerOptions {
    return this.#options;
  }

  /** Samples every interval until stopped (nothing when the interval is 0). */
  start(): void {
    if (this.#options.intervalMs <= 0 || this.#timer) return;
    this.#timer = setInterval(() => {
      // One sample at a time: a slow cluster skips ticks rather than piling requests up.
      this.#running ??= this.sample()
        .catch((err: Error) => this.#onError(err))
        .finally(() => (this.#running = undefined));
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Takes one sample of every group now (the timer's work; tests call it directly). */
  async sample(): Promise<void> {
    const lags = await this.#source();
    const time = this.#now();
    const oldest = time - this.#options.keepMs;
    for (const { id, partitions } of lags) {
      let history = this.#histories.get(id);
      if (!history) {
        if (this.#histories.size >= this.#options.maxGroups) continue;
        history = [];
        this.#histories.set(id, history);
      }
      history.push({ time, lag: partitions.reduce((sum, p) => sum + p.lag, 0), partitions });
    }
    for (const [id, history] of this.#histories) {
      let expired = 0;
      while (expired < history.length && history[expired]!.time < oldest) expired++;
      if (expired > 0) history.splice(0, expired);
      if (history.length === 0) this.#histories.delete(id);
    }
  }

  /** The samples kept for a group, oldest first (empty when none). */
  history(id: string): readonly LagSample[] {
    return [...(this.#histories.get(id) ?? [])];
  }
}
