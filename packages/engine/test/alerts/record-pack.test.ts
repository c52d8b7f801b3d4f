import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packRecords, unpackRecords } from '../../src/alerts/record-pack.ts';

test('packRecords: partitions, offsets and values (null and empty too) come back from one ArrayBuffer, keys left out', () => {
  const records = [
    { partition: 0, offset: 0, key: Buffer.from('k'), value: Buffer.from('{"a":"é"}') },
    { partition: 1, offset: 2 ** 40, value: null },
    { partition: 3, offset: 7, value: Buffer.alloc(0) },
    { partition: 0, offset: 1, value: Buffer.from('last') },
  ];
  const packed = packRecords(records);
  assert.ok(packed instanceof ArrayBuffer);
  assert.deepEqual(
    unpackRecords(packed).map((r) => [r.partition, r.offset, r.value === null ? null : r.value.toString('utf8')]),
    [
      [0, 0, '{"a":"é"}'],
      [1, 2 ** 40, null],
      [3, 7, ''],
      [0, 1, 'last'],
    ],
  );
  assert.deepEqual(unpackRecords(packRecords([])), []);
});
