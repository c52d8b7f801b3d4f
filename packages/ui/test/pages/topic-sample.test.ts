import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleNote, topicSample } from '../../src/pages/topic-sample.ts';

test('JSON objects (as text or parsed) become the lines; text, arrays, numbers and null are skipped and counted', () => {
  const sample = topicSample([
    '{"user":"ada"}',
    'user=bob action=login',
    { user: 'cy' },
    '[1,2]',
    '7',
    null,
    '{broken',
  ]);
  assert.deepEqual(sample, { lines: ['{"user":"ada"}', '{"user":"cy"}'], skipped: 5 });
  assert.equal(
    sampleNote('auth-events', sample),
    'Loaded 2 events from auth-events; skipped 5 messages that are not a JSON object.',
  );
  assert.equal(sampleNote('t', topicSample(['{"a":1}'])), 'Loaded 1 event from t.');
  assert.equal(
    sampleNote('t', topicSample(['x'])),
    'Loaded 0 events from t; skipped 1 message that is not a JSON object.',
  );
});
