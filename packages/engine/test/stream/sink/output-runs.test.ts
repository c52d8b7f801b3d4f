import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OutgoingRecord } from '../../../src/stream/records.ts';
import { sizeBoundedRuns, timestampSafeRuns } from '../../../src/stream/sink/output-runs.ts';

const record = (topic: string, timestamp: bigint, bytes = 1): OutgoingRecord => ({
  topic,
  value: Buffer.alloc(bytes),
  timestamp,
});
const day = 24n * 3600n * 1000n;

test('records within 2^31 ms of each other per topic go in one run', () => {
  const out = [record('a', 0n), record('b', 40n * day), record('a', 20n * day)];
  assert.deepEqual(timestampSafeRuns(out), [out]);
  assert.deepEqual(timestampSafeRuns([]), [[]]);
});

test('a record further apart from its topic’s run starts a new run, in order', () => {
  const out = [record('a', 0n), record('a', 1n), record('a', 30n * day), record('a', 2n)];
  assert.deepEqual(
    timestampSafeRuns(out).map((run) => run.map((r) => r.timestamp)),
    [[0n, 1n], [30n * day], [2n]],
  );
});

test('runs are cut so that no send carries more than 512 KiB of keys and values', () => {
  const big = Array.from({ length: 5 }, () => record('a', 0n, 200 * 1024));
  assert.deepEqual(
    sizeBoundedRuns([big, [record('b', 0n)]]).map((run) => run.length),
    [2, 2, 1, 1],
  );
});
