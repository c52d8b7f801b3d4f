import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildColumnIndex, columnIndexOf, hashOf } from '../../src/rules/column-index.ts';
import { shareLookup } from '../../src/rules/shared-lookup.ts';

test('a column index: twice the rows rounded up to a power of two, 8 bytes a slot, the first row of each value, null and missing cells never', () => {
  const rows = [{ ip: 'a' }, { ip: 'b' }, { ip: 'a' }, { ip: null }, { other: 1 }, { ip: 7 }, { ip: '7' }];
  const memory = buildColumnIndex(shareLookup('t', rows), 'ip', ['ip']);
  assert.ok(memory instanceof SharedArrayBuffer);
  assert.equal(memory.byteLength, 16 * 8);
  const index = columnIndexOf(memory);
  assert.equal(index.mask, 15);
  const indexed = new Map<number, number>();
  for (let slot = 0; slot <= index.mask; slot++)
    if (index.rows[slot] !== 0) indexed.set(index.rows[slot]! - 1, index.hashes[slot]!);
  // rows 0 (a), 1 (b), 5 (7; the text '7' has the same value key, so row 6 is not indexed)
  assert.deepEqual([...indexed.keys()].sort(), [0, 1, 5]);
  assert.equal(indexed.get(0), hashOf('s:a'));
});

test('an empty table has an index of two empty slots', () => {
  const index = columnIndexOf(buildColumnIndex(shareLookup('t', []), 'ip', ['ip']));
  assert.deepEqual([...index.rows], [0, 0]);
});
