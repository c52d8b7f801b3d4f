import { lookupCell, valueKey, type IndexedLookupTable } from '@weir/pdl';

type Row = Readonly<Record<string, unknown>>;

/**
 * A lookup table held once per node for every stream worker thread (docs/architecture.md, "Lookup
 * tables"): its rows as JSON, one after another, in shared memory, and where each starts. Posted
 * to a worker, the buffers are shared, not copied.
 */
export interface SharedLookupData {
  readonly id: string;
  /** The rows' JSON (UTF-8), one after another. */
  readonly bytes: SharedArrayBuffer;
  /** Float64Array over it: row i is bytes [starts[i], starts[i + 1]). */
  readonly starts: SharedArrayBuffer;
  readonly count: number;
}

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
  return { id, bytes, starts: starts.buffer as SharedArrayBuffer, count: texts.length };
}

/** FNV-1a over a string's UTF-16 code units. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One column's index: open addressing, the slot's row + 1 (0: empty) and the hash of its key. */
interface ColumnIndex {
  readonly rows: Int32Array;
  readonly hashes: Uint32Array;
  readonly mask: number;
}

/** Rows decoded and kept per table, at most this many (then forgotten, all at once). */
const decodedLimit = 4096;

/**
 * A worker thread's view of a shared lookup table: the rows stay in shared memory; each column the
 * PDL looks up gets a compact index of this thread (two 32-bit numbers a slot, built when first
 * asked for), and a row is decoded when found, with the last few thousand kept. The same rows as
 * the rows table's index (pdl/lookup.ts): the first row of each value key, `null` never indexed.
 */
export class SharedLookup implements IndexedLookupTable {
  readonly version: number;
  readonly #text: Buffer;
  readonly #starts: Float64Array;
  readonly #count: number;
  readonly #columns = new Map<string, ColumnIndex>();
  readonly #decoded = new Map<number, Row>();

  constructor(data: SharedLookupData, version: number) {
    this.version = version;
    this.#text = Buffer.from(data.bytes); // a view: shared memory, not a copy
    this.#starts = new Float64Array(data.starts);
    this.#count = data.count;
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
      row = this.#parse(i);
      if (this.#decoded.size >= decodedLimit) this.#decoded.clear();
      this.#decoded.set(i, row);
    }
    return row;
  }

  #parse(i: number): Row {
    return JSON.parse(this.#text.toString('utf8', this.#starts[i]!, this.#starts[i + 1]!)) as Row;
  }

  #index(column: string, path: readonly string[]): ColumnIndex {
    let index = this.#columns.get(column);
    if (index !== undefined) return index;
    let size = 2;
    while (size < this.#count * 2) size *= 2;
    index = { rows: new Int32Array(size), hashes: new Uint32Array(size), mask: size - 1 };
    for (let i = 0; i < this.#count; i++) {
      const key = valueKey(lookupCell(this.#parse(i), column, path));
      if (key === undefined || key === 'null') continue;
      const hash = hashOf(key);
      let slot = hash & index.mask;
      let taken = false;
      for (; index.rows[slot] !== 0; slot = (slot + 1) & index.mask) {
        if (index.hashes[slot] !== hash) continue;
        const other = this.#row(index.rows[slot]! - 1);
        if (valueKey(lookupCell(other, column, path)) === key) {
          taken = true; // the first row of a value key wins
          break;
        }
      }
      if (taken) continue;
      index.rows[slot] = i + 1;
      index.hashes[slot] = hash;
    }
    this.#columns.set(column, index);
    return index;
  }
}
