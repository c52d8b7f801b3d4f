import type { IndexedLookupTable, LookupResolver, LookupTable } from '@weir/pdl';
import { SharedLookup, type ColumnIndexSource, type SharedLookupData } from './shared-lookup.ts';
import type { ConfigStore } from '../store/config-store.ts';

/** A lookup as stored (resources/lookup.ts: Lookup): an id and its rows. */
export interface StoredLookupRows {
  readonly id: string;
  readonly content: LookupTable['rows'];
}

/**
 * The one lookup resolver: lookup tables by id as PDL and the tasks read them, for the stream
 * engine (a configuration snapshot's lookups, `update`), and for the rule book, the save-time
 * checks and the test endpoints (the stored lookups, `storedLookups`). A table is read when a
 * program first asks for it and kept, with the index PDL builds on it, until its lookup changes
 * (`forget`) or the lookups are replaced (`update`); so a request pays for the lookups its PDL
 * names, and the indexes survive changes of other configuration. A missing id is not kept: any
 * text can be asked for.
 */
export class LookupTables implements LookupResolver {
  #read: (id: string) => LookupTable['rows'] | undefined;
  #tables = new Map<string, LookupTable | IndexedLookupTable>();
  #version = 0;

  /** `read`: a lookup's rows by id, undefined when there is no such lookup (default: none). */
  constructor(read: (id: string) => LookupTable['rows'] | undefined = () => undefined) {
    this.#read = read;
  }

  get(id: string): LookupTable | IndexedLookupTable | undefined {
    let table = this.#tables.get(id);
    if (table === undefined) {
      const rows = this.#read(id);
      if (rows === undefined) return undefined;
      table = { version: ++this.#version, rows };
      this.#tables.set(id, table);
    }
    return table;
  }

  /** Forgets one table (its lookup changed or was deleted): read again when next asked for. */
  forget(id: string): void {
    this.#tables.delete(id);
  }

  /** Every lookup of a configuration snapshot, in place of the ones before (the stream engine sends them only when they changed). */
  update(lookups: readonly StoredLookupRows[]): void {
    const rows = new Map(lookups.map((lookup) => [lookup.id, lookup.content]));
    this.#read = (id) => rows.get(id);
    this.#tables = new Map();
  }

  /**
   * Every lookup of a worker thread's snapshot, held in shared memory (rules/shared-lookup.ts), in
   * place of the ones before; `indexes`: where their column indexes come from (the main thread's
   * one copy, rules/lookup-index-server.ts), else each is built here.
   */
  share(lookups: readonly SharedLookupData[], indexes?: ColumnIndexSource): void {
    this.#read = () => undefined;
    this.#tables = new Map(lookups.map((l) => [l.id, new SharedLookup(l, ++this.#version, indexes)]));
  }
}

const byStore = new WeakMap<ConfigStore, LookupTables>();

/**
 * The stored lookups: one resolver per store, shared by the save-time checks of tasks and rules
 * and the test endpoints, reading a lookup from the store when first asked for and forgetting it
 * when the store reports a change of it.
 */
export function storedLookups(store: ConfigStore): LookupTables {
  let tables = byStore.get(store);
  if (tables === undefined) {
    const created = new LookupTables((id) => store.get<StoredLookupRows>('lookups', id)?.content);
    store.onChange((collection, id) => {
      if (collection === 'lookups') created.forget(id);
    });
    byStore.set(store, created);
    tables = created;
  }
  return tables;
}
