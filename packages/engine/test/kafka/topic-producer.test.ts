import assert from 'node:assert/strict';
import { test } from 'node:test';
import { murmur2 } from '../../src/kafka/murmur2.ts';
import { writtenAt } from '../../src/kafka/topic-producer.ts';

test("each record's partition and offset: the partitioner modulo the count, offsets on from each partition's base", () => {
  const a = Buffer.from('alpha');
  const b = Buffer.from('bravo');
  const pa = (murmur2(a) & 0x7fffffff) % 3;
  const pb = (murmur2(b) & 0x7fffffff) % 3;
  const bases = [...new Set([0, pa, pb])].map((partition) => ({ partition, offset: BigInt(10 * (partition + 1)) }));
  const offsetOf = (p: number) => 10 * (p + 1);
  const expected: { partition: number; offset: number }[] = [];
  const next = new Map<number, number>();
  for (const p of [pa, 0, pb, pa, 0]) {
    const o = next.get(p) ?? offsetOf(p);
    next.set(p, o + 1);
    expected.push({ partition: p, offset: o });
  }
  assert.deepEqual(writtenAt([{ key: a }, {}, { key: b }, { key: a }, {}], bases, 3), expected);
});

test('a partition the broker did not answer for: offset -1', () => {
  assert.deepEqual(writtenAt([{}], [], 1), [{ partition: 0, offset: -1 }]);
});
