import { domainError, isWeirError } from '../core/errors.ts';
import { isRecordTooLarge } from '../kafka/broker-errors.ts';
import { SerialQueue } from '../core/serial-queue.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { isStringId, stringIdRule } from '@weir/contract';
import { SerialisedListCache, type SerialisedList } from './serialised-list.ts';
import { LookupFormatError, parseLookupFile, type LookupRow } from './lookup-table.ts';

/** A lookup as stored and shown (spec: Lookup). */
export interface Lookup {
  readonly id: string;
  readonly content: LookupRow[];
}

/** An uploaded lookup file (the multipart part `file`). */
export interface LookupFile {
  readonly data: Buffer;
  readonly filename: string;
  readonly mimetype: string;
}

export const lookupNames = { one: 'lookup', many: 'lookups' } as const;

/**
 * The lookups resource (spec: Lookups), like the other resource kinds but fed by file uploads:
 * a file is parsed completely before anything is stored, and an update replaces the whole content
 * in one store write, so a bad file never changes the stored lookup. Writes run one at a time.
 */
export class LookupResource {
  readonly #store: ConfigStore;
  readonly #maxBytes: number;
  readonly #maxTotal: number;
  readonly #writes = new SerialQueue();
  readonly #serialised: SerialisedListCache;
  /** Each stored lookup's size as counted by the total limit, kept by the store's change events (read once, on first use). */
  #sizes: Map<string, number> | undefined;

  /** `maxTotal`: all lookups together (weir.lookup.max-total-bytes), each counted as its content's JSON. */
  constructor(store: ConfigStore, maxBytes: number, maxTotal: number) {
    this.#store = store;
    this.#maxBytes = maxBytes;
    this.#maxTotal = maxTotal;
    this.#serialised = new SerialisedListCache(store, 'lookups', () => this.list());
    store.onChange((collection, id, value) => {
      if (collection !== 'lookups' || this.#sizes === undefined) return;
      if (value === undefined) this.#sizes.delete(id);
      else this.#sizes.set(id, contentSize(value as Lookup));
    });
  }

  list(): Lookup[] {
    return this.#store.list<Lookup>('lookups');
  }

  /** `list()` as JSON bytes with its entity tag, serialised once per change of the lookups. */
  serialisedList(): SerialisedList {
    return this.#serialised.get();
  }

  get(id: string): Lookup {
    const lookup = this.#store.get<Lookup>('lookups', id);
    if (!lookup) throw domainError('RESOURCE_MISSING', lookupNames);
    return lookup;
  }

  /** The route has checked its parts against the declared schema: both are there. */
  async create(rawId: string, file: LookupFile): Promise<{ id: string }> {
    if (!isStringId(rawId)) throw domainError('RESOURCE_ID_INVALID', lookupNames, rawId, stringIdRule);
    const content = parsed(file);
    await this.#writes.run(async () => {
      if (this.#store.get('lookups', rawId)) throw domainError('RESOURCE_EXISTS', lookupNames);
      await this.#save({ id: rawId, content });
    });
    return { id: rawId };
  }

  /** 404 unless the lookup exists: an update says so before its file is read. */
  requireExisting(id: string): void {
    if (!this.#store.get('lookups', id)) throw domainError('RESOURCE_UPDATE_MISSING', lookupNames);
  }

  async update(id: string, file: LookupFile): Promise<{ id: string }> {
    this.requireExisting(id);
    const content = parsed(file);
    await this.#writes.run(async () => {
      this.requireExisting(id);
      await this.#save({ id, content });
    });
    return { id };
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.#writes.run(() => this.#store.delete('lookups', id));
    if (!deleted) throw domainError('RESOURCE_DELETE_MISSING', lookupNames);
  }

  /** Refuses a lookup that would make all lookups together larger than `weir.lookup.max-total-bytes`. */
  #checkTotal(lookup: Lookup): void {
    // The stored sizes are kept, not counted again: an upload's work grows with its own size, not with all lookups'.
    this.#sizes ??= new Map(this.#store.list<Lookup>('lookups').map((stored) => [stored.id, contentSize(stored)]));
    const size = contentSize(lookup);
    let others = 0;
    for (const [id, bytes] of this.#sizes) if (id !== lookup.id) others += bytes;
    if (others + size > this.#maxTotal) throw domainError('LOOKUP_TOTAL_TOO_LARGE', this.#maxTotal, others, size);
  }

  async #save(lookup: Lookup): Promise<void> {
    this.#checkTotal(lookup);
    try {
      await this.#store.put('lookups', lookup.id, lookup);
    } catch (err) {
      // The kafka store's topic refuses a record over its max.message.bytes.
      if (!isWeirError(err) && isRecordTooLarge(err)) throw domainError('LOOKUP_TOO_LARGE', this.#maxBytes);
      throw err;
    }
  }
}

/** A lookup's size as the total limit counts it: its content's JSON. */
function contentSize(lookup: Lookup): number {
  return JSON.stringify(lookup.content).length;
}

function parsed(file: LookupFile): LookupRow[] {
  try {
    return parseLookupFile(file.data, file.filename, file.mimetype);
  } catch (err) {
    if (err instanceof LookupFormatError) throw domainError('LOOKUP_INVALID', file.filename || 'file', err.message);
    throw err;
  }
}
