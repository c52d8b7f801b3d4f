import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertStatuses, severities } from '@weir/contract';
import { alertStatusColor, severityColor } from '../../src/lib/severity-colors.ts';

test('every severity has a colour of its own', () => {
  assert.deepEqual(Object.keys(severityColor).sort(), [...severities].sort());
  assert.equal(new Set(Object.values(severityColor)).size, severities.length);
});

test('every alert status has a colour of its own', () => {
  assert.deepEqual(Object.keys(alertStatusColor).sort(), [...alertStatuses].sort());
  assert.equal(new Set(Object.values(alertStatusColor)).size, alertStatuses.length);
});
