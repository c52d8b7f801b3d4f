import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
// the Kafka client's own murmur2: the reference for the hash (correct, but quadratic in the key's length)
import { murmur2 as clientMurmur2 } from '@platformatic/kafka';
import { clientDefaultPartitioner, javaCompatiblePartitioner, murmur2 } from '../../src/kafka/murmur2.ts';

test("murmur2 gives the Java client's hashes (Kafka's UtilsTest vectors)", () => {
  const cases: [string, number][] = [
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ];
  for (const [text, hash] of cases) assert.equal(murmur2(Buffer.from(text)), hash, text);
});

test('murmur2 equals the Kafka client’s on keys of every length up to 200 bytes', () => {
  for (let length = 0; length <= 200; length++)
    for (let n = 0; n < 10; n++) {
      const key = randomBytes(length);
      assert.equal(murmur2(key), clientMurmur2(key), `length ${length}`);
    }
});

test('the partitioners place keys as before: Java toPositive, and the client default (unsigned)', () => {
  for (let n = 0; n < 200; n++) {
    const key = randomBytes(1 + (n % 40));
    assert.equal(javaCompatiblePartitioner({}, key), clientMurmur2(key) & 0x7fffffff);
    assert.equal(clientDefaultPartitioner()({ topic: 't' }, key), clientMurmur2(key) >>> 0);
  }
  // unkeyed records: round robin per topic, as the client does without a partitioner
  const unkeyed = clientDefaultPartitioner();
  assert.deepEqual(
    [unkeyed({ topic: 'a' }, undefined), unkeyed({ topic: 'a' }, undefined), unkeyed({ topic: 'b' }, undefined)],
    [0, 1, 0],
  );
  assert.equal(javaCompatiblePartitioner({}, undefined), 0);
});
