import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertBulkTriage, alertTriageChange, alertListQuery } from '../src/alerts.ts';
import { ajv } from './helpers/ajv.ts';

test('alertTriageChange: at least one known field; statuses and resolutions from the lists', () => {
  const valid = ajv.compile(alertTriageChange);
  assert.equal(valid({ status: 'closed', resolution: 'false_positive', note: 'n', assignee: null }), true);
  assert.equal(valid({}), false);
  assert.equal(valid({ status: 'open' }), false);
  assert.equal(valid({ resolution: 'maybe' }), false);
  assert.equal(valid({ owner: 'x' }), false);
});

test('alertBulkTriage: 1 to 1000 distinct ids and a change', () => {
  const valid = ajv.compile(alertBulkTriage);
  assert.equal(valid({ ids: ['a'], change: { status: 'acknowledged' } }), true);
  assert.equal(valid({ ids: [], change: { status: 'acknowledged' } }), false);
  assert.equal(valid({ ids: ['a', 'a'], change: { status: 'acknowledged' } }), false);
  assert.equal(valid({ ids: ['a'] }), false);
});

test('alertListQuery: repeatable parameters as a string or an array; field.<path> accepted, others not', () => {
  const valid = ajv.compile(alertListQuery);
  assert.equal(valid({ status: 'new', severity: ['high', 'low'], 'field.user': 'alice' }), true);
  assert.equal(valid({ colour: 'red' }), false);
});
