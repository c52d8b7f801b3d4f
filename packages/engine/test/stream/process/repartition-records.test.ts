import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeRouted, encodeRouted, partitionOf } from '../../../src/stream/process/repartition-records.ts';

const T0 = Date.UTC(2023, 4, 1);

describe('repartition records', () => {
  test('a group always maps to the same partition, and the envelope round-trips', () => {
    assert.equal(partitionOf('["alice"]', 4), partitionOf('["alice"]', 4));
    const spread = new Set(Array.from({ length: 200 }, (_, i) => partitionOf(JSON.stringify([`u${i}`]), 4)));
    assert.deepEqual([...spread].sort(), [0, 1, 2, 3]);
    const routed = {
      stage: 'rule:r',
      pdlStage: 1,
      key: '["alice"]',
      event: { user: 'alice', n: 1 },
      time: T0,
      timestamp: T0 + 5,
    };
    const back = decodeRouted(encodeRouted(routed, Buffer.from('k1')), Buffer.from(routed.key), T0 + 5);
    assert.deepEqual(back.routed, routed);
    assert.equal(back.sourceKey?.toString(), 'k1');
    assert.equal(back.origin, undefined); // an event the idle close emitted has no input record
    const origin = {
      topic: 'in',
      partition: 3,
      offset: 2n ** 40n,
      value: Buffer.from([0xff, 0x00, 0x7b]),
      timestamp: BigInt(T0 + 1),
    };
    assert.deepEqual(
      decodeRouted(encodeRouted(routed, Buffer.from('k1'), origin), Buffer.from(routed.key), T0 + 5).origin,
      origin,
    );
    assert.throws(() => decodeRouted(Buffer.from('{"x":1}'), null, 0), /not a Weir repartition record/);
  });
});
