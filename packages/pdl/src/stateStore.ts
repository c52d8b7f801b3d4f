import type { JsonObject } from './values.ts';

/**
 * The state of one group of one correlation stage. Plain JSON, so a durable store can persist
 * it as it is.
 */
export interface CorrelationGroupState {
  /** Whether a window is open; a closed group only carries a suppression. */
  open: boolean;
  /** emit=close: the window [start, end]; emit=event: the window ending at the newest event. */
  start: number;
  end: number;
  /** Time of the newest event of the group. */
  maxTime: number;
  /** Emissions of the group are silenced while event time is before this (0: none). */
  suppressedUntil: number;
  /** What the stage's function remembers (counts, sums, values, matched events). */
  summary: JsonObject;
}

/**
 * The stream time of one stage (in one partition, when the engine partitions state): the newest
 * event time it has seen, or the time a caller advanced it to. Windows advance and close by it,
 * never by the wall clock. Mutable; the store keeps it next to the stage's groups so that it is
 * per partition and survives a restore.
 */
export interface StageClock {
  /** Newest event time seen (epoch ms); -Infinity before the first event. */
  time: number;
  /** Earliest end of an open emit=close window; -Infinity forces a scan (e.g. after a restore). */
  nextClose: number;
  /** Stream time of the last sweep of expired emit=event groups. */
  sweptAt: number;
}

export function newStageClock(time = -Infinity): StageClock {
  return { time, nextClose: -Infinity, sweptAt: time };
}

/**
 * Where correlation stages keep their groups. `scope` identifies one stage of one compiled
 * program; `key` one group. The engine supplies a durable implementation; `set` is called after
 * every change, and `entries` must list groups least recently set first.
 */
export interface CorrelationStateStore {
  get(scope: string, key: string): CorrelationGroupState | undefined;
  set(scope: string, key: string, state: CorrelationGroupState): void;
  delete(scope: string, key: string): void;
  size(scope: string): number;
  entries(scope: string): Iterable<readonly [string, CorrelationGroupState]>;
  /** The stage's clock (created at -Infinity on first use); the same object until the store switches partition. */
  clock(scope: string): StageClock;
}

/** The in-memory store: a Map per scope in least-recently-set order. */
export class InMemoryCorrelationStateStore implements CorrelationStateStore {
  readonly #scopes = new Map<string, Map<string, CorrelationGroupState>>();
  readonly #clocks = new Map<string, StageClock>();

  clock(scope: string): StageClock {
    let clock = this.#clocks.get(scope);
    if (clock === undefined) {
      clock = newStageClock();
      this.#clocks.set(scope, clock);
    }
    return clock;
  }

  /** The scopes that hold groups or a clock. */
  scopes(): Iterable<string> {
    return new Set([...this.#scopes.keys(), ...this.#clocks.keys()]);
  }

  get(scope: string, key: string): CorrelationGroupState | undefined {
    return this.#scopes.get(scope)?.get(key);
  }

  set(scope: string, key: string, state: CorrelationGroupState): void {
    let groups = this.#scopes.get(scope);
    if (groups === undefined) {
      groups = new Map();
      this.#scopes.set(scope, groups);
    }
    groups.delete(key);
    groups.set(key, state);
  }

  delete(scope: string, key: string): void {
    this.#scopes.get(scope)?.delete(key);
  }

  size(scope: string): number {
    return this.#scopes.get(scope)?.size ?? 0;
  }

  entries(scope: string): Iterable<readonly [string, CorrelationGroupState]> {
    return this.#scopes.get(scope)?.entries() ?? [];
  }
}
