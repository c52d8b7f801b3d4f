import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workerResourceLimits, youngGenerationMb } from '../../src/stream/worker-limits.ts';

test('a worker thread: the old generation at weir.stream.worker-heap-mb, the young generation 1/16 of it, between 8 and 64 MB', () => {
  assert.deepEqual(workerResourceLimits(1024), { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 });
  assert.deepEqual(workerResourceLimits(100), { maxOldGenerationSizeMb: 100, maxYoungGenerationSizeMb: 8 });
  assert.deepEqual(workerResourceLimits(65536), { maxOldGenerationSizeMb: 65536, maxYoungGenerationSizeMb: 64 });
  assert.equal(youngGenerationMb(600), 38);
  assert.equal(workerResourceLimits(0), undefined, "0: V8's defaults");
});
