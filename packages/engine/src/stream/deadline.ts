/**
 * Deadlines for the stream worker's steps that wait on Kafka. The client bounds each request, but a
 * step made of many (a group join, a restore, a write with its retries) can wait without end when a
 * broker dies at the wrong moment; a worker stuck that way processes nothing and says nothing. A step
 * past its deadline fails like any other step: the worker logs it and restarts from the committed offsets.
 */

/** Thrown when a step did not finish within its deadline. */
export class DeadlineExceeded extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * Resolves or rejects as `work` does, or rejects with DeadlineExceeded after `ms`. `what` names the
 * step; a function is asked at the deadline (the part of a step that was under way). The work is not
 * cancelled: its late outcome is ignored, and whoever started it must not let it change anything.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(typeof what === 'string' ? what : what(), ms)), ms);
    // a deadline alone does not keep the process running
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closing a client: past this, it is left behind (its sockets end with it) and the worker goes on. */
export const closeDeadlineMs = 10_000;

/**
 * Waits for a client to close, at most closeDeadlineMs (or `ms`): a close that hangs is left
 * behind and `onLeftBehind` says so; a failed close is no news.
 */
export async function closeWithin(
  close: Promise<unknown>,
  what: string,
  onLeftBehind: (message: string) => void,
  ms = closeDeadlineMs,
): Promise<void> {
  await withDeadline(close, ms, `closing ${what}`).catch((err: unknown) => {
    if (err instanceof DeadlineExceeded) onLeftBehind(err.message);
  });
}
