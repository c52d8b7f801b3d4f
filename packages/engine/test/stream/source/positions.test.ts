import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FetchedRecord } from '../../../src/stream/records.ts';
import { Positions } from '../../../src/stream/source/positions.ts';

const r = (topic: string, partition: number, offset: number) =>
  ({ topic, partition, offset: BigInt(offset) }) as FetchedRecord;
const offsets = (records: readonly FetchedRecord[]) => records.map((x) => `${x.topic}/${x.partition}/${x.offset}`);

test('an assignment is a change until taken in; gained partitions are those not held before', () => {
  const p = new Positions();
  const first = p.change([{ topic: 'in', partitions: [0, 1] }])!;
  assert.deepEqual([...first.assigned], ['in\u00000', 'in\u00001']);
  assert.deepEqual(first.gained, ['in\u00000', 'in\u00001']);
  p.adopt(first.assigned);
  assert.equal(p.change([{ topic: 'in', partitions: [1, 0] }]), undefined);
  const second = p.change([{ topic: 'in', partitions: [1, 2] }])!;
  assert.deepEqual(second.gained, ['in\u00002']);
  p.forgetAssignment();
  assert.deepEqual(p.change([{ topic: 'in', partitions: [0, 1] }])?.gained, ['in\u00000', 'in\u00001']);
});

test('a batch is admitted once: records of partitions moved away or below the position are left out', () => {
  const p = new Positions();
  p.adopt(new Set(['in\u00000']));
  const first = p.admit([r('in', 0, 5), r('in', 1, 9), r('in', 0, 6)]);
  assert.deepEqual(offsets(first.records), ['in/0/5', 'in/0/6']);
  assert.deepEqual([...first.before], [['in\u00000', undefined]]);
  assert.equal(first.last.get('in\u00000')?.offset, 6n);
  // read again after a rebalance that left the partition here
  const again = p.admit([r('in', 0, 6), r('in', 0, 7)]);
  assert.deepEqual(offsets(again.records), ['in/0/7']);
  assert.equal(p.of('in', 0), 8n);
});

test('skipped offsets are reported as gaps; a rollback goes back to the positions before the batch', () => {
  const p = new Positions();
  p.admit([r('in', 0, 1)]);
  const batch = p.admit([r('in', 0, 5), r('in', 0, 6)]);
  assert.deepEqual(
    batch.gaps.map((g) => [g.record.offset, g.next]),
    [[5n, 2n]],
  );
  p.rollBack(batch.before);
  assert.equal(p.of('in', 0), 2n);
  const fresh = p.admit([r('in', 1, 3)]);
  p.rollBack(fresh.before);
  assert.equal(p.of('in', 1), undefined);
});

test('a committed offset read after a gain moves the position forward only', () => {
  const p = new Positions();
  p.admit([r('in', 0, 10)]);
  p.committed('in', 0, 4n);
  p.committed('in', 0, undefined);
  assert.equal(p.of('in', 0), 11n);
  p.committed('in', 0, 20n);
  p.committed('in', 1, 0n);
  assert.deepEqual([p.of('in', 0), p.of('in', 1)], [20n, undefined]);
  p.adopt(new Set(['in\u00001']));
  assert.equal(p.of('in', 0), undefined, 'positions of partitions lost are forgotten');
  p.clear();
  assert.ok(p.change([]));
});
