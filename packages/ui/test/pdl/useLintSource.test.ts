import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintSampleOf } from '../../src/pdl/useLintSource.ts';

/** The editor's lint sample: the test panel's events first, else the picked topic (bounded), else none. */
test('events first, then the topic with its count (1 to 1000), else nothing', () => {
  const events = [{ user: 'bob' }];
  assert.equal(lintSampleOf(events, 'logs', 20), events);
  assert.deepEqual(lintSampleOf([], 'logs', 20), { topic: 'logs', sample: 20 });
  assert.deepEqual(lintSampleOf([], 'logs', 5000), { topic: 'logs', sample: 1000 });
  assert.deepEqual(lintSampleOf([], 'logs', Number('')), { topic: 'logs' });
  assert.deepEqual(lintSampleOf([], 'logs', 0), { topic: 'logs' });
  assert.equal(lintSampleOf([], null, 20), undefined);
  assert.equal(lintSampleOf([], '', 20), undefined);
});
