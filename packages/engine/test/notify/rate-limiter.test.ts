import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../src/notify/rate-limiter.ts';

test('a full minute’s tokens at once, then each request waits for its own token', () => {
  const limiter = new RateLimiter(60, 0);
  for (let i = 0; i < 60; i++) assert.equal(limiter.take(0), 0, `request ${i}`);
  // 60 per minute: one token a second; the queued requests wait 1 s, 2 s, 3 s.
  assert.deepEqual([limiter.take(0), limiter.take(0), limiter.take(0)], [1000, 2000, 3000]);
});

test('tokens come back with time, never beyond the limit', () => {
  const limiter = new RateLimiter(2, 0);
  assert.deepEqual([limiter.take(0), limiter.take(0), limiter.take(0)], [0, 0, 30_000]);
  // 30 s later the third request's token is there; the fourth waits for the next.
  assert.equal(limiter.take(30_000), 30_000);
  // An hour idle gives back at most 2 tokens (the two waits above are paid first).
  const idle = new RateLimiter(2, 0);
  idle.take(0);
  idle.take(0);
  assert.deepEqual([idle.take(3_600_000), idle.take(3_600_000), idle.take(3_600_000)], [0, 0, 30_000]);
});

test('a lower limit caps the tokens kept', () => {
  const limiter = new RateLimiter(600, 0);
  limiter.perMinute = 1;
  assert.deepEqual([limiter.take(0), limiter.take(0)], [0, 60_000]);
});
