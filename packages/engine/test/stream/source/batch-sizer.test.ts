import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BatchSizer } from '../../../src/stream/source/batch-sizer.ts';

describe('BatchSizer: batches that follow the load (weir.stream.batch-target-ms)', () => {
  test('before anything is measured, and with a target of 0, a batch may take up to maxBatch', () => {
    assert.equal(new BatchSizer(2000, 5).next(10), 2000);
    const noTarget = new BatchSizer(2000, 0);
    noTarget.processed(100, 50);
    assert.equal(noTarget.next(10), 2000);
  });

  test('while the worker keeps up, a batch holds what the process stage handles in the target time', () => {
    const sizer = new BatchSizer(2000, 5);
    sizer.processed(1000, 20); // 0.02 ms a record: 250 records in 5 ms
    assert.equal(sizer.next(3), 250, 'the limit; a batch of 3 waiting records takes the 3');
    assert.equal(sizer.next(250), 250, 'all that waits fits: no growth');
    assert.equal(sizer.next(0), 250);
  });

  test('the time per record is an average over recent batches, by records (tiny batches do not swing it)', () => {
    const sizer = new BatchSizer(2000, 5);
    sizer.processed(1000, 20);
    sizer.processed(1, 0.5); // one record with the batch's fixed cost
    const limit = sizer.next(0);
    assert.ok(limit > 200 && limit < 250, `${limit}`);
  });

  test('under a backlog a batch doubles at each take up to maxBatch, and is back to the target once all that waits fits', () => {
    const sizer = new BatchSizer(2000, 5);
    sizer.processed(1000, 20);
    const sizes = [10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 800, 100].map((queued) => sizer.next(queued));
    assert.deepEqual(sizes, [250, 500, 1000, 2000, 2000, 2000, 2000, 250]);
  });

  test('growth stops at 8 times the target size when that is below maxBatch', () => {
    const sizer = new BatchSizer(100_000, 5);
    sizer.processed(10, 10); // 1 ms a record: 5 records in 5 ms
    const sizes = Array.from({ length: 6 }, () => sizer.next(1_000_000));
    assert.deepEqual(sizes, [5, 10, 20, 40, 40, 40]);
  });

  test('a batch holds at least one record, however slow the records are', () => {
    const sizer = new BatchSizer(2000, 5);
    sizer.processed(1, 100);
    assert.equal(sizer.next(0), 1);
  });

  test('nothing processed or an unmeasured time changes nothing', () => {
    const sizer = new BatchSizer(2000, 5);
    sizer.processed(0, 10);
    sizer.processed(10, Number.NaN);
    assert.equal(sizer.next(0), 2000);
  });
});
