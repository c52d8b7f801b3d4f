import type { LookupResolver, LookupTable } from '@weir/pdl';
import type { ConfigStore } from '../store/config-store.ts';
import type { Lookup } from './lookup.ts';

/**
 * The stored lookups as PDL reads them, for the test endpoints: a table is read from the store when
 * a program first asks for it and kept (with the index PDL builds on it) until the store reports a
 * change of that lookup. A test request pays for the lookups its PDL names, not for all of them.
 */
export class StoredLookups implements LookupResolver {
  readonly #store: ConfigStore;
  readonly #tables = new Map<string, LookupTable>();
  #version = 0;

  constructor(store: ConfigStore) {
    this.#store = store;
    store.onChange((collection, id) => {
      if (collection === 'lookups') this.#tables.delete(id);
    });
  }

  get(id: string): LookupTable | undefined {
    let table = this.#tables.get(id);
    if (table === undefined) {
      // A missing id is not kept: any text can be asked for, and the store answers it from its index.
      const lookup = this.#store.get<Lookup>('lookups', id);
      if (lookup === undefined) return undefined;
      table = { version: ++this.#version, rows: lookup.content };
      this.#tables.set(id, table);
    }
    return table;
  }
}
