import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IdleClock } from '../../../src/stream/state/idle-clock.ts';

describe('IdleClock: how far an idle state partition moves its stream time (weir.stream.idle-close-seconds)', () => {
  test('no step before the partition has been idle for the setting; the first step covers the whole idle time', () => {
    const clock = new IdleClock();
    clock.opened('p', 1000);
    assert.equal(clock.step('p', 5999, 5000), undefined);
    assert.equal(clock.step('p', 6500, 5000), 5500);
  });

  test('later steps cover the time since the previous one; a record starts the idle time again', () => {
    const clock = new IdleClock();
    clock.opened('p', 0);
    assert.equal(clock.step('p', 5000, 5000), 5000);
    assert.equal(clock.step('p', 6000, 5000), 1000);
    clock.active('p', 7000);
    assert.equal(clock.step('p', 8000, 5000), undefined);
    assert.equal(clock.step('p', 12_500, 5000), 5500);
  });

  test('partitions are independent; steps cleared after a rollback count from the last record again', () => {
    const clock = new IdleClock();
    clock.opened('a', 0);
    clock.opened('b', 4000);
    assert.equal(clock.step('a', 5000, 5000), 5000);
    assert.equal(clock.step('b', 5000, 5000), undefined);
    clock.clearSteps();
    assert.equal(clock.step('a', 6000, 5000), 6000);
  });

  test('a partition forgotten (moved to another worker) takes no step', () => {
    const clock = new IdleClock();
    clock.opened('p', 0);
    clock.forget('p');
    assert.equal(clock.step('p', 10_000, 5000), undefined);
    assert.equal(clock.step('p', 60_000, 5000), undefined);
  });
});
