import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OffsetLedger } from '../../src/notify/offset-ledger.ts';

test('an offset is committed once every delivery of it and of the records before it ended', () => {
  const ledger = new OffsetLedger();
  ledger.admit('a', 0, 10n, 2);
  ledger.admit('a', 0, 11n, 0);
  ledger.admit('a', 0, 12n, 1);
  assert.deepEqual(ledger.takeCommits(), []);
  assert.equal(ledger.inFlight, 2);
  ledger.settle('a', 0, 12n);
  assert.deepEqual(ledger.takeCommits(), [], 'record 10 still waits for two deliveries');
  ledger.settle('a', 0, 10n);
  assert.deepEqual(ledger.takeCommits(), []);
  ledger.settle('a', 0, 10n);
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 0, offset: 13n }]);
  assert.deepEqual(ledger.takeCommits(), [], 'said once');
  assert.equal(ledger.inFlight, 0);
});

test('partitions are apart; a record without deliveries is done at once', () => {
  const ledger = new OffsetLedger();
  ledger.admit('a', 0, 5n, 1);
  ledger.admit('a', 1, 7n, 0);
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 1, offset: 8n }]);
  ledger.settle('a', 0, 5n);
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 0, offset: 6n }]);
});

test('a record read again (after a rebalance or a restart of the consumer) is not admitted twice', () => {
  const ledger = new OffsetLedger();
  assert.equal(ledger.admit('a', 0, 3n, 1), true);
  assert.equal(ledger.admit('a', 0, 4n, 1), true);
  assert.equal(ledger.admit('a', 0, 3n, 1), false);
  assert.equal(ledger.admit('a', 0, 4n, 1), false);
  assert.equal(ledger.inFlight, 2);
});

test('a partition given up is forgotten: its next owner reads it from the committed offset', () => {
  const ledger = new OffsetLedger();
  ledger.admit('a', 0, 3n, 1);
  ledger.admit('a', 1, 3n, 1);
  assert.deepEqual(ledger.retainOnly(new Set(['a\u00001'])), ['a\u00000']);
  ledger.settle('a', 0, 3n);
  assert.deepEqual(ledger.takeCommits(), []);
  assert.equal(ledger.admit('a', 0, 3n, 0), true, 'read again when the partition comes back');
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 0, offset: 4n }]);
});

test('records behind a waiting one cost nothing; the commit stops at the first record still waiting', () => {
  const ledger = new OffsetLedger();
  for (let o = 0n; o < 5n; o++) ledger.admit('a', 0, o, 0);
  ledger.admit('a', 0, 5n, 1);
  for (let o = 6n; o < 100_000n; o++) ledger.admit('a', 0, o, 0);
  assert.equal(ledger.inFlight, 1);
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 0, offset: 5n }]);
  ledger.settle('a', 0, 5n);
  assert.deepEqual(ledger.takeCommits(), [{ topic: 'a', partition: 0, offset: 100_000n }]);
});
