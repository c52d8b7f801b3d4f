import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTimeExample, parseTime } from '../../src/lib/iso-time.ts';

test('an ISO 8601 date and time: its milliseconds', () => {
  assert.equal(parseTime('2026-11-26T08:00:00Z'), Date.UTC(2026, 10, 26, 8));
  assert.equal(parseTime(isoTimeExample), Date.UTC(2026, 10, 26, 8));
});

test('text that is no date and time: an error naming the field and the text, with an example', () => {
  assert.throws(() => parseTime('yesterday'), {
    message: "Time: 'yesterday' is not a date and time (e.g. 2026-11-26T08:00:00Z)",
  });
  assert.throws(() => parseTime(''), { message: "Time: '' is not a date and time (e.g. 2026-11-26T08:00:00Z)" });
});
