/**
 * The wall-clock side of weir.stream.idle-close-seconds (off by default): when each state partition
 * last got a record, and when it last took an idle step. A partition idle for `idleMs` moves its
 * stream time on by the wall-clock time that passed, so its emit=close windows close without a
 * later event. Keys are `topic\0partition`.
 */
export class IdleClock {
  /** Wall-clock time of the last record (or idle step) per open state partition. */
  readonly #lastActivity = new Map<string, number>();
  /** Wall-clock time of the last idle step per state partition (cleared by a record). */
  readonly #idleSteps = new Map<string, number>();

  /** A partition was restored (opened): idle from now on. */
  opened(key: string, now: number): void {
    this.#lastActivity.set(key, now);
  }

  /** A record of the partition was processed. */
  active(key: string, now: number): void {
    this.#lastActivity.set(key, now);
    this.#idleSteps.delete(key);
  }

  /** The partition left this worker. */
  forget(key: string): void {
    this.#lastActivity.delete(key);
  }

  /** The steps taken are void (their batch was rolled back with the state). */
  clearSteps(): void {
    this.#idleSteps.clear();
  }

  /**
   * For a partition idle for at least `idleMs` at `now`, records an idle step and returns how far
   * its stream time moves: the whole idle time at the first step, the time since the previous one
   * after; undefined when it is not idle long enough.
   */
  step(key: string, now: number, idleMs: number): number | undefined {
    const lastActive = this.#lastActivity.get(key) ?? now;
    if (now - lastActive < idleMs) return undefined;
    const idleSince = this.#idleSteps.get(key) ?? lastActive;
    this.#idleSteps.set(key, now);
    return now - idleSince;
  }
}
