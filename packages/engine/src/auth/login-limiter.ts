/**
 * Counts failed logins per (username, address) in a fixed window; once `maxFailures` is reached the
 * pair is refused (429) until the window ends. A successful login clears the pair.
 */
export class LoginLimiter {
  readonly #failures = new Map<string, { count: number; until: number }>();
  readonly #maxFailures: number;
  readonly #windowMs: number;

  constructor(maxFailures: number, windowSeconds: number) {
    this.#maxFailures = maxFailures;
    this.#windowMs = windowSeconds * 1000;
  }

  /** Seconds to wait when the pair is blocked, else 0. */
  blockedFor(username: string, address: string, now = Date.now()): number {
    const entry = this.#failures.get(`${address}\u0000${username}`);
    if (!entry || entry.until <= now || entry.count < this.#maxFailures) return 0;
    return Math.ceil((entry.until - now) / 1000);
  }

  fail(username: string, address: string, now = Date.now()): void {
    const key = `${address}\u0000${username}`;
    const entry = this.#failures.get(key);
    if (!entry || entry.until <= now) this.#failures.set(key, { count: 1, until: now + this.#windowMs });
    else entry.count++;
    if (this.#failures.size > 100_000) this.#prune(now);
  }

  succeed(username: string, address: string): void {
    this.#failures.delete(`${address}\u0000${username}`);
  }

  #prune(now: number): void {
    for (const [key, entry] of this.#failures) if (entry.until <= now) this.#failures.delete(key);
  }
}
