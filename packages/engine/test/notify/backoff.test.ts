import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffSchedule, maxRetryAfterMs, parseRetryAfter, retryDelayMs } from '../../src/notify/backoff.ts';

const defaults = { maxAttempts: 15, initialMs: 1000, maxMs: 60_000 };

test('the default schedule: doubling from 1 s to 60 s, 14 waits spanning about 9 minutes', () => {
  const schedule = backoffSchedule(defaults);
  assert.deepEqual(
    schedule,
    [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000],
  );
  assert.equal(
    schedule.reduce((a, b) => a + b, 0),
    543_000,
  );
});

test('one attempt: no wait; a small maximum caps every wait', () => {
  assert.deepEqual(backoffSchedule({ ...defaults, maxAttempts: 1 }), []);
  assert.deepEqual(backoffSchedule({ maxAttempts: 4, initialMs: 50, maxMs: 120 }), [50, 100, 120]);
  assert.equal(retryDelayMs(defaults, 2000), 60_000);
});

test('Retry-After lengthens a wait, never shortens it, and is capped at an hour', () => {
  assert.equal(retryDelayMs(defaults, 1, 30_000), 30_000);
  assert.equal(retryDelayMs(defaults, 7, 5000), 60_000);
  assert.equal(retryDelayMs(defaults, 1, 10 * maxRetryAfterMs), maxRetryAfterMs);
});

test('a Retry-After header: seconds or an HTTP date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:30 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});
