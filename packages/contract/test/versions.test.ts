import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  changeNoteHeader,
  maxChangeNoteLength,
  versionActions,
  versionDetail,
  versionDiff,
  versionSummary,
} from '../src/versions.ts';
import { violationsOf } from './helpers/ajv.ts';

test('the change note travels in one header, of at most 1000 characters', () => {
  assert.equal(changeNoteHeader, 'x-weir-change-note');
  assert.equal(maxChangeNoteLength, 1000);
  assert.deepEqual(versionActions, ['create', 'update', 'delete']);
});

test('the answers describe a version, its record and a diff (open objects: nothing is cut)', () => {
  const summary = { version: 2, time: '2026-11-26T10:00:00.000Z', user: 'admin', action: 'update', note: 'n' };
  assert.deepEqual(violationsOf(versionSummary)(summary), []);
  assert.deepEqual(violationsOf(versionSummary)({ ...summary, user: null, rollbackOf: 1 }), []);
  assert.deepEqual(violationsOf(versionSummary)({ ...summary, action: 'rename' }), ['/action enum']);
  assert.deepEqual(violationsOf(versionDetail)({ ...summary, record: null }), []);
  const diff = {
    from: 1,
    to: 2,
    changes: [
      { path: 'name', before: 'a', after: 'b' },
      { path: 'severity', after: 'high' },
    ],
    pdl: [{ op: '+', text: 'x' }],
  };
  assert.deepEqual(violationsOf(versionDiff)(diff), []);
  assert.deepEqual(violationsOf(versionDiff)({ ...diff, pdl: [{ op: '~', text: 'x' }] }), ['/pdl/0/op enum']);
});
