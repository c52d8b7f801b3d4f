/**
 * The stream worker's alarm: the loop waits on it (a sleep, a fetch with no record yet) and is woken
 * early by whatever needs it to look again (a new plan, a stop, records the idle clock emitted, a
 * sign of a lost connection, the end of a rebalance). One wait at a time.
 */
export class Wakeup {
  #wake: (() => void) | undefined;

  /** Ends the wait under way, if any. */
  wake(): void {
    this.#wake?.();
  }

  /** What a wake does while a wait is under way (undefined: the wait is over). */
  set(onWake: (() => void) | undefined): void {
    this.#wake = onWake;
  }

  /** Resolves after `ms`, or at a wake. */
  async sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.#wake = resolve;
    });
    clearTimeout(timer);
    this.#wake = undefined;
  }
}
