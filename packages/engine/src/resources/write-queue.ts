/** Runs async work one at a time, so a check and the write that depends on it cannot interleave. */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    this.#tail = result.catch(() => {});
    return result;
  }
}
