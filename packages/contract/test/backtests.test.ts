import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backtestStates, backtestStatus } from '../src/backtests.ts';

test('a backtest status: its states, and a response shape that keeps fields it does not name', () => {
  assert.deepEqual(backtestStates, ['queued', 'running', 'done', 'failed', 'cancelled']);
  const shape = backtestStatus as { properties: { state: { enum: readonly string[] } }; additionalProperties: unknown };
  assert.deepEqual(shape.properties.state.enum, backtestStates);
  assert.equal(shape.additionalProperties, true);
});
