import { AsyncLocalStorage } from 'node:async_hooks';

/** Who is acting and from where, for the audit entries of the writes a request makes. */
export interface Actor {
  readonly user: string | null;
  readonly address: string | null;
}

const actors = new AsyncLocalStorage<{ actor: Actor }>();

/** Runs a request's handler with its actor; the principal is filled in once authenticated. */
export function runAs<T>(holder: { actor: Actor }, fn: () => T): T {
  return actors.run(holder, fn);
}

/** The actor of the request being handled, or undefined outside requests (heartbeats, startup). */
export function currentActor(): Actor | undefined {
  return actors.getStore()?.actor;
}
