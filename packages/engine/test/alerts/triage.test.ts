import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyTriageChange, describeTriageChange, parseTriage, untriaged } from '../../src/alerts/triage.ts';

test('applyTriageChange: status, assignee, notes with who and when; closing needs a resolution; reopening clears it', () => {
  const acked = applyTriageChange(untriaged, { status: 'acknowledged', assignee: 'al', note: 'mine' }, 'al', 5);
  assert.deepEqual(acked, {
    status: 'acknowledged',
    resolution: null,
    assignee: 'al',
    notes: [{ user: 'al', time: 5, text: 'mine' }],
    updatedBy: 'al',
    updatedAt: 5,
  });
  assert.throws(() => applyTriageChange(acked, { status: 'closed' }, 'al', 6), /body.resolution is required to close/);
  assert.throws(
    () => applyTriageChange(acked, { resolution: 'benign' }, 'al', 6),
    /only accepted when the alert is closed/,
  );
  const closed = applyTriageChange(acked, { status: 'closed', resolution: 'benign' }, 'bo', 7);
  assert.equal(describeTriageChange(acked, closed), 'status acknowledged → closed, resolution benign');
  const noted = applyTriageChange(closed, { note: 'ok', assignee: null }, 'cy', 8);
  assert.deepEqual([noted.resolution, noted.assignee, noted.notes.length], ['benign', null, 2]);
  const reopened = applyTriageChange(noted, { status: 'new' }, 'cy', 9);
  assert.deepEqual([reopened.status, reopened.resolution], ['new', null]);
  assert.equal(describeTriageChange(reopened, reopened), 'no change');
});

test('parseTriage: a triage record, or undefined for anything else', () => {
  assert.deepEqual(parseTriage(Buffer.from(JSON.stringify({ status: 'closed', resolution: 'benign' }))), {
    ...untriaged,
    status: 'closed',
    resolution: 'benign',
  });
  assert.equal(parseTriage(null), undefined);
  assert.equal(parseTriage(Buffer.from('{"status":"open"}')), undefined);
  assert.equal(parseTriage(Buffer.from('nope')), undefined);
});
