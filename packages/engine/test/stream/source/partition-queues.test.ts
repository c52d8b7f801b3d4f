import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { PartitionQueues } from '../../../src/stream/source/partition-queues.ts';

describe('PartitionQueues: fair batches', () => {
  const m = (partition: number, offset: number) => ({ topic: 't', partition, offset });

  test('every partition with records gets an equal share of a batch, in its own order', () => {
    const q = new PartitionQueues<ReturnType<typeof m>>();
    for (let i = 0; i < 1000; i++) q.push(m(0, i));
    for (let i = 0; i < 10; i++) q.push(m(1, i));
    for (let i = 0; i < 300; i++) q.push(m(2, i));
    const batch = q.take(90);
    const count = (p: number) => batch.filter((x) => x.partition === p).length;
    assert.equal(batch.length, 90);
    assert.equal(count(1), 10);
    assert.ok(count(0) >= 30 && count(2) >= 30, `shares ${count(0)}/${count(1)}/${count(2)}`);
    for (const p of [0, 1, 2]) {
      const offsets = batch.filter((x) => x.partition === p).map((x) => x.offset);
      assert.deepEqual(
        offsets,
        offsets.map((_, i) => i),
      );
    }
    assert.equal(q.size, 1310 - 90);
  });

  test('batches smaller than the partitions with records start one partition further each time: none starves', () => {
    const q = new PartitionQueues<ReturnType<typeof m>>();
    for (let i = 0; i < 30; i++) q.push(m(i % 3, i));
    const firsts = [q.take(1), q.take(1), q.take(1), q.take(2)].map((b) => b.map((x) => x.partition).join(','));
    assert.deepEqual(firsts, ['0', '1', '2', '0,1']);
  });

  test('put back keeps the order; records of partitions moved away are dropped', () => {
    const q = new PartitionQueues<ReturnType<typeof m>>();
    for (let i = 0; i < 6; i++) q.push(m(i % 2, i));
    const first = q.take(4);
    q.putBack(first);
    assert.deepEqual(
      q.take(6).map((x) => x.offset),
      [1, 3, 5, 0, 2, 4],
      'each partition in its order (this batch starts at the next partition)',
    );
    for (let i = 0; i < 4; i++) q.push(m(i % 2, i));
    assert.equal(q.retainOnly(new Set(['t\u00001'])), 2);
    assert.deepEqual(
      q.take(10).map((x) => x.partition),
      [1, 1],
    );
  });
});

test('under a backlog that never drains, the records taken are let go (each holds its fetch response)', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const queues = new PartitionQueues<{ topic: string; partition: number; n: number }>();
  let n = 0;
  queues.push({ topic: 't', partition: 0, n: n++ });
  queues.push({ topic: 't', partition: 0, n: n++ });
  const first = new WeakRef(queues.take(1)[0]!);
  // the consumer keeps the queue topped up: two in, one out, 5,000 times; it never empties
  for (let i = 0; i < 5000; i++) {
    queues.push({ topic: 't', partition: 0, n: n++ });
    queues.push({ topic: 't', partition: 0, n: n++ });
    queues.take(1);
  }
  assert.equal(queues.size, 5001);
  await new Promise((r) => setImmediate(r));
  gc();
  assert.equal(first.deref(), undefined, 'the first record taken is still referenced by the queue');
  // and the order is kept across the compactions: the next record is the 5,002nd pushed
  assert.equal(queues.take(1)[0]!.n, 5001);
});
