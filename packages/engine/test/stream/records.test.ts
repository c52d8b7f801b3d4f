import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partitionKey } from '../../src/stream/records.ts';

test('a partition key names topic and partition, apart even when a topic name ends in digits', () => {
  assert.equal(partitionKey('in', 3), 'in\u00003');
  assert.notEqual(partitionKey('in1', 1), partitionKey('in', 11));
});
