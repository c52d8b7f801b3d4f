import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Wakeup } from '../../src/stream/wakeup.ts';

test('a sleep ends at its time, or earlier at a wake; a wake with no wait under way does nothing', async () => {
  const wakeup = new Wakeup();
  wakeup.wake();
  let started = performance.now();
  await wakeup.sleep(20);
  assert.ok(performance.now() - started >= 15);
  started = performance.now();
  const sleeping = wakeup.sleep(10_000);
  wakeup.wake();
  await sleeping;
  assert.ok(performance.now() - started < 1000);
});

test('a wait of its own is ended by a wake until it is cleared', () => {
  const wakeup = new Wakeup();
  const woken: string[] = [];
  wakeup.set(() => woken.push('fetch'));
  wakeup.wake();
  wakeup.set(undefined);
  wakeup.wake();
  assert.deepEqual(woken, ['fetch']);
});
