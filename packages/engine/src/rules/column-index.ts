import { lookupCell, valueKey } from '@weir/pdl';
import type { SharedLookupData } from './shared-lookup.ts';

type Row = Readonly<Record<string, unknown>>;

/**
 * One column's index of a shared lookup table (rules/shared-lookup.ts), itself in shared memory so
 * that one copy serves every worker thread (docs/architecture.md, "Lookup tables"): open
 * addressing over a power of two of slots at least twice the rows, each slot the row + 1 (0: empty)
 * and the hash of its value key; the rows as the rows table's index has them (pdl/lookup.ts): the
 * first row of each value key, `null` never indexed.
 */
export interface ColumnIndex {
  readonly rows: Int32Array;
  readonly hashes: Uint32Array;
  readonly mask: number;
}

/** FNV-1a over a string's UTF-16 code units. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The index over its shared memory (the slots' rows, then their hashes). */
export function columnIndexOf(memory: SharedArrayBuffer): ColumnIndex {
  const size = memory.byteLength / 8;
  return { rows: new Int32Array(memory, 0, size), hashes: new Uint32Array(memory, 4 * size, size), mask: size - 1 };
}

/** Row i of a shared table, parsed. */
export function sharedRow(text: Buffer, starts: Float64Array, i: number): Row {
  return JSON.parse(text.toString('utf8', starts[i]!, starts[i + 1]!)) as Row;
}

/** Indexes one column of a shared table into shared memory of its own (8 bytes a slot). */
export function buildColumnIndex(data: SharedLookupData, column: string, path: readonly string[]): SharedArrayBuffer {
  const text = Buffer.from(data.bytes);
  const starts = new Float64Array(data.starts);
  let size = 2;
  while (size < data.count * 2) size *= 2;
  const memory = new SharedArrayBuffer(8 * size);
  const index = columnIndexOf(memory);
  for (let i = 0; i < data.count; i++) {
    const key = valueKey(lookupCell(sharedRow(text, starts, i), column, path));
    if (key === undefined || key === 'null') continue;
    const hash = hashOf(key);
    let slot = hash & index.mask;
    let taken = false;
    for (; index.rows[slot] !== 0; slot = (slot + 1) & index.mask) {
      if (index.hashes[slot] !== hash) continue;
      const other = sharedRow(text, starts, index.rows[slot]! - 1);
      if (valueKey(lookupCell(other, column, path)) === key) {
        taken = true; // the first row of a value key wins
        break;
      }
    }
    if (taken) continue;
    index.rows[slot] = i + 1;
    index.hashes[slot] = hash;
  }
  return memory;
}
