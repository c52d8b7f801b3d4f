/** The retry settings of the deliveries (weir.notify.max-attempts, weir.notify.backoff-*-ms). */
export interface RetryPolicy {
  /** Attempts in all, the first included; after the last failed one the delivery is dead-lettered. */
  readonly maxAttempts: number;
  readonly initialMs: number;
  readonly maxMs: number;
}

/** The longest a `Retry-After` is honoured: an hour (a receiver asking for more is retried after an hour). */
export const maxRetryAfterMs = 3_600_000;

/**
 * How long to wait after failed attempt `attempt` (1 = the first) before the next: the initial delay
 * doubled per attempt, at most `maxMs`; never shorter than the receiver's `Retry-After` (in ms, at
 * most an hour).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const doubled = policy.initialMs * 2 ** Math.min(attempt - 1, 52);
  const backoff = Math.min(policy.maxMs, doubled);
  return retryAfterMs === undefined ? backoff : Math.max(backoff, Math.min(retryAfterMs, maxRetryAfterMs));
}

/** The waits between the attempts of a delivery that always fails (maxAttempts − 1 of them). */
export function backoffSchedule(policy: RetryPolicy): number[] {
  return Array.from({ length: Math.max(0, policy.maxAttempts - 1) }, (_, i) => retryDelayMs(policy, i + 1));
}

/** A `Retry-After` header in ms from `now`: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
