import { lookupCell, valueKey, type IndexedLookupTable } from '@weir/pdl';
import { buildColumnIndex, columnIndexOf, hashOf, sharedRow, type ColumnIndex } from './column-index.ts';

type Row = Readonly<Record<string, unknown>>;

/**
 * A lookup table held once per node for every stream worker thread (docs/architecture.md, "Lookup
 * tables"): its rows as JSON, one after another, in shared memory, and where each starts. Posted
 * to a worker, the buffers are shared, not copied.
 */
export interface SharedLookupData {
  readonly id: string;
  /** Which encoding of the table this is, unique in the node's process: what its shared column indexes are kept by (lookup-index-server.ts). */
  readonly key: string;
  /** The rows' JSON (UTF-8), one after another. */
  readonly bytes: SharedArrayBuffer;
  /** Float64Array over it: row i is bytes [starts[i], starts[i + 1]). */
  readonly starts: SharedArrayBuffer;
  readonly count: number;
}

let encodings = 0;

/** A new `SharedLookupData.key` for lookup `id`. */
export function encodingKey(id: string): string {
  return `${++encodings}:${id}`;
}

/**
 * One column's index of a shared table in shared memory, from whoever holds them for every thread
 * (lookup-index-server.ts); undefined when it cannot say (the thread then builds its own).
 */
export type ColumnIndexSource = (
  data: SharedLookupData,
  column: string,
  path: readonly string[],
) => SharedArrayBuffer | undefined;

/** Encodes a lookup's rows into shared memory, once (the main thread, when a lookup changed). */
export function shareLookup(id: string, rows: readonly Row[]): SharedLookupData {
  const texts = rows.map((row) => JSON.stringify(row));
  const starts = new Float64Array(new SharedArrayBuffer(8 * (texts.length + 1)));
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    starts[i] = at;
    at += Buffer.byteLength(texts[i]!);
  }
  starts[texts.length] = at;
  const bytes = new SharedArrayBuffer(at);
  const view = Buffer.from(bytes);
  for (let i = 0; i < texts.length; i++) view.write(texts[i]!, starts[i]!);
  return { id, key: encodingKey(id), bytes, starts: starts.buffer as SharedArrayBuffer, count: texts.length };
}

/** Rows decoded and kept per table, at most this many (then forgotten, all at once). */
const decodedLimit = 4096;

/**
 * A worker thread's view of a shared lookup table: the rows stay in shared memory; each column the
 * PDL looks up gets a compact index (column-index.ts, two 32-bit numbers a slot), asked for when
 * first needed from the node's one copy (`indexes`: the main thread builds each once and hands the
 * same shared memory to every thread), or built by this thread when there is no one to ask; a row
 * is decoded when found, with the last few thousand kept. The same rows as the rows table's index
 * (pdl/lookup.ts): the first row of each value key, `null` never indexed.
 */
export class SharedLookup implements IndexedLookupTable {
  readonly version: number;
  readonly #data: SharedLookupData;
  readonly #indexes: ColumnIndexSource | undefined;
  readonly #text: Buffer;
  readonly #starts: Float64Array;
  readonly #columns = new Map<string, ColumnIndex>();
  readonly #decoded = new Map<number, Row>();

  constructor(data: SharedLookupData, version: number, indexes?: ColumnIndexSource) {
    this.version = version;
    this.#data = data;
    this.#indexes = indexes;
    this.#text = Buffer.from(data.bytes); // a view: shared memory, not a copy
    this.#starts = new Float64Array(data.starts);
  }

  first(column: string, path: readonly string[], key: string): Row | undefined {
    const index = this.#index(column, path);
    const hash = hashOf(key);
    for (let slot = hash & index.mask; ; slot = (slot + 1) & index.mask) {
      const at = index.rows[slot]!;
      if (at === 0) return undefined;
      if (index.hashes[slot] !== hash) continue;
      const row = this.#row(at - 1);
      if (valueKey(lookupCell(row, column, path)) === key) return row;
    }
  }

  #row(i: number): Row {
    let row = this.#decoded.get(i);
    if (row === undefined) {
      row = sharedRow(this.#text, this.#starts, i);
      if (this.#decoded.size >= decodedLimit) this.#decoded.clear();
      this.#decoded.set(i, row);
    }
    return row;
  }

  #index(column: string, path: readonly string[]): ColumnIndex {
    let index = this.#columns.get(column);
    if (index === undefined) {
      const memory = this.#indexes?.(this.#data, column, path) ?? buildColumnIndex(this.#data, column, path);
      index = columnIndexOf(memory);
      this.#columns.set(column, index);
    }
    return index;
  }
}
