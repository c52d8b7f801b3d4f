import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertMetadataSchema } from '../src/alert-record.ts';
import { alertSuppressionSchema, suppressionSchema, suppressionWindowMs } from '../src/suppression.ts';
import { violationsOf } from './helpers/ajv.ts';

test("a window is a whole number and one of PDL's timespan units", () => {
  assert.deepEqual(
    ['30s', '5m', '1h', '1d', '2w'].map(suppressionWindowMs),
    [30_000, 300_000, 3_600_000, 86_400_000, 1_209_600_000],
  );
  for (const bad of ['0s', '5', 'm', '1.5h', '5 m', '10ms', '1y', '-1h'])
    assert.throws(() => suppressionWindowMs(bad), new RegExp(`not a suppression window: ${bad}`));
});

test('a suppression names 1 to 16 distinct field paths and a window, nothing else', () => {
  assert.deepEqual(violationsOf(suppressionSchema)({ fields: ['user.name', 'host'], window: '5m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: [], window: '5m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: ['a', 'a'], window: '5m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: ['.a'], window: '5m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: ['a.'], window: '5m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: ['a'], window: '0m' }), []);
  assert.notDeepEqual(violationsOf(suppressionSchema)({ fields: ['a'] }), []);
});

test("an alert record's suppression is optional in _alert and complete when there", () => {
  const base = { id: '0'.repeat(32), severity: 'low', techniques: [], time: 1, source: null };
  const suppression = { count: 3, firstSeen: 1, lastSeen: 9, fields: { user: 'a' }, window: { start: 0, end: 60_000 } };
  assert.deepEqual(violationsOf(alertMetadataSchema)(base), []);
  assert.deepEqual(violationsOf(alertMetadataSchema)({ ...base, suppression }), []);
  assert.notDeepEqual(violationsOf(alertSuppressionSchema)({ ...suppression, count: -1 }), []);
  assert.notDeepEqual(violationsOf(alertSuppressionSchema)({ ...suppression, window: undefined }), []);
});
