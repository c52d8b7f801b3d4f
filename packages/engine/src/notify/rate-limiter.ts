/**
 * A notifier's rate limit (`rateLimitPerMinute`): a token bucket of that many tokens, refilled
 * evenly over a minute. A request takes a token; when none is left it waits for the next one (a
 * request over the limit waits, it is never dropped). Time is passed in, so the bucket is pure.
 */
export class RateLimiter {
  #perMinute: number;
  #tokens: number;
  #at: number;

  constructor(perMinute: number, now: number) {
    this.#perMinute = perMinute;
    this.#tokens = perMinute;
    this.#at = now;
  }

  /** A new limit (the notifier was changed): the tokens kept are capped at it. */
  set perMinute(perMinute: number) {
    this.#perMinute = perMinute;
    this.#tokens = Math.min(this.#tokens, perMinute);
  }

  /**
   * Takes a token for a request and says how long to wait before sending it (0: at once). Requests
   * taken while the bucket is empty queue up behind each other: each waits for its own token.
   */
  take(now: number): number {
    const rate = this.#perMinute / 60_000;
    this.#tokens = Math.min(this.#perMinute, this.#tokens + Math.max(0, now - this.#at) * rate);
    this.#at = Math.max(this.#at, now);
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil(-this.#tokens / rate);
  }
}
