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
}

/** The in-memory store: a Map per scope in least-recently-set order. */
export class InMemoryCorrelationStateStore implements CorrelationStateStore {
  readonly #scopes = new Map<string, Map<string, CorrelationGroupState>>();

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
