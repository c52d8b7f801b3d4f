import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EndWatch } from '../../src/kafka/end-watch.ts';

test('done when each partition has handed on its last message before the end offset', () => {
  const w = new EndWatch(
    't',
    new Map([
      [0, 3n],
      [1, 1n],
      [2, 0n],
    ]),
  );
  assert.equal(w.done, false, 'partition 2 is empty: only 0 and 1 count');
  assert.equal(w.message(0, 1), false);
  assert.equal(w.message(1, 0), false, 'partition 1 done, partition 0 not yet');
  assert.equal(w.message(0, 2), true);
});

test('done when the fetch position reached the end with nothing buffered (gaps before the end)', () => {
  const w = new EndWatch('t', new Map([[0, 10n]]));
  assert.equal(w.positions({ offsetsToFetch: new Map([['t:0', 8n]]), readableLength: 0 }), false);
  assert.equal(w.positions({ offsetsToFetch: new Map([['t:0', 10n]]), readableLength: 2 }), false, 'still buffered');
  assert.equal(w.positions({ offsetsToFetch: new Map([['other:0', 10n]]), readableLength: 0 }), false);
  assert.equal(w.positions({ offsetsToFetch: new Map([['t:0', 10n]]), readableLength: 0 }), true);
});

test('a read with nothing to read is done at once', () => {
  assert.equal(new EndWatch('t', new Map()).done, true);
  assert.equal(new EndWatch('t', new Map([[0, 0n]])).done, true);
});
