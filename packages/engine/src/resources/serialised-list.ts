import { etagOf } from '../core/etag.ts';
import type { ConfigStore } from '../store/config-store.ts';

/** A collection as the list route sends it: the JSON bytes and their entity tag. */
export interface SerialisedList {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * A collection's list as JSON bytes with its entity tag, made once per change of the collection
 * (this node's writes and, in kafka mode, other nodes'): a UI polling 1,000 rules or 20 MB of
 * lookups costs a hash look-up, not a read, parse and stringify of each record.
 */
export class SerialisedListCache {
  readonly #list: () => readonly unknown[];
  #cached: SerialisedList | undefined;

  constructor(store: ConfigStore, collection: string, list: () => readonly unknown[]) {
    this.#list = list;
    store.onChange((changed) => {
      if (changed === collection) this.#cached = undefined;
    });
  }

  get(): SerialisedList {
    if (this.#cached === undefined) {
      const body = Buffer.from(JSON.stringify(this.#list()), 'utf8');
      this.#cached = { body, etag: etagOf(body) };
    }
    return this.#cached;
  }
}
