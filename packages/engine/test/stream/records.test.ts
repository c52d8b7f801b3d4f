import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ageSeconds, oldestTimestamp, partitionKey } from '../../src/stream/records.ts';

test('a partition key names topic and partition, apart even when a topic name ends in digits', () => {
  assert.equal(partitionKey('in', 3), 'in\u00003');
  assert.notEqual(partitionKey('in1', 1), partitionKey('in', 11));
});

test("the oldest record's timestamp of a batch, in ms; none without records", () => {
  assert.equal(
    oldestTimestamp([
      { timestamp: 1_700_000_000_500n },
      { timestamp: 1_700_000_000_100n },
      { timestamp: 1_700_000_000_900n },
    ]),
    1_700_000_000_100,
  );
  assert.equal(oldestTimestamp([]), undefined);
});

test('an age in seconds; 0 for a timestamp ahead of the clock, days for a replay', () => {
  assert.equal(ageSeconds(1_700_000_000_250, 1_700_000_000_000), 0.25);
  assert.equal(ageSeconds(1_700_000_000_000, 1_700_000_009_000), 0);
  assert.equal(ageSeconds(1_700_000_000_000, 1_700_000_000_000 - 3 * 86_400_000), 3 * 86_400);
});
