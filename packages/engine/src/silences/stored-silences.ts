import type { StoredSilence } from '@weir/contract';
import type { ConfigStore } from '../store/config-store.ts';

const readers = new WeakMap<object, () => readonly StoredSilence[]>();

/**
 * The store's silences as the alert answers and the notifications read them, for every alert:
 * listed once and again only after a silence changed (the store's change events, which in kafka
 * mode also carry other nodes' writes). Between changes the same objects come back, so
 * silence-match.ts compiles each silence's regular expressions once, not per alert (the SQLite
 * store parses new objects on every `list`). One reader per store.
 */
export function storedSilences(store: Pick<ConfigStore, 'list' | 'onChange'>): () => readonly StoredSilence[] {
  let read = readers.get(store);
  if (read === undefined) {
    let cached: readonly StoredSilence[] | undefined;
    store.onChange((collection) => {
      if (collection === 'silences') cached = undefined;
    });
    read = () => (cached ??= store.list<StoredSilence>('silences'));
    readers.set(store, read);
  }
  return read;
}
