/**
 * Runs async work one at a time, in the order it was queued, so that a check and the write that
 * depends on it cannot interleave (resource and user writes, engine start/stop). A failed piece of
 * work rejects its own promise only; the queue goes on.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    this.#tail = result.catch(() => {});
    return result;
  }
}
