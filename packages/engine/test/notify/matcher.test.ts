import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAlert } from '@weir/contract';
import { matcherHolds, type NotifiedAlert } from '../../src/notify/matcher.ts';

const record = {
  user: 'alice',
  _rule: { id: 'failed-login', name: 'Failed login', annotations: ['T1110.001'] },
  _alert: { id: 'a'.repeat(32), severity: 'high', techniques: ['T1110.001'], time: 1, source: null },
};
const alert = readAlert(record) as NotifiedAlert;

test('an alerts-topic record: its id, severity, techniques and rule; the record kept whole', () => {
  assert.deepEqual(alert, {
    id: 'a'.repeat(32),
    time: 1,
    severity: 'high',
    techniques: ['T1110.001'],
    source: null,
    rule: { id: 'failed-login', name: 'Failed login' },
    record,
  });
});

test('a record that is no alert says why', () => {
  assert.equal(readAlert([1]), 'the record is not a JSON object');
  assert.equal(readAlert(null), 'the record is not a JSON object');
  assert.equal(readAlert({ padasRule: {} }), 'the record has no _alert');
  assert.equal(readAlert({ _alert: { severity: 'high' } }), '_alert.id is not 32 hex digits');
  assert.equal(
    readAlert({ _alert: { id: 'a'.repeat(32), time: 'x', severity: 'high' } }),
    '_alert.time is not a number',
  );
  assert.equal(
    readAlert({ _alert: { id: 'a'.repeat(32), time: 1, severity: 'urgent' } }),
    '_alert.severity is not one of informational, low, medium, high, critical',
  );
});

test('an empty matcher holds for every alert', () => {
  assert.equal(matcherHolds({}, alert), true);
});

test('minSeverity: at least that severity', () => {
  assert.equal(matcherHolds({ minSeverity: 'informational' }, alert), true);
  assert.equal(matcherHolds({ minSeverity: 'high' }, alert), true);
  assert.equal(matcherHolds({ minSeverity: 'critical' }, alert), false);
});

test('rules: the alert’s rule is one of them', () => {
  assert.equal(matcherHolds({ rules: ['other', 'failed-login'] }, alert), true);
  assert.equal(matcherHolds({ rules: ['other'] }, alert), false);
  const ruleless = readAlert({ _alert: record._alert }) as NotifiedAlert;
  assert.equal(matcherHolds({ rules: ['failed-login'] }, ruleless), false);
});

test('techniques: the same technique, or a sub-technique of one, in any case', () => {
  assert.equal(matcherHolds({ techniques: ['T1110.001'] }, alert), true);
  assert.equal(matcherHolds({ techniques: ['t1110'] }, alert), true);
  assert.equal(matcherHolds({ techniques: ['T111'] }, alert), false);
  assert.equal(matcherHolds({ techniques: ['T1110.002', 'T1059'] }, alert), false);
});

test('every condition given must hold', () => {
  assert.equal(matcherHolds({ minSeverity: 'medium', rules: ['failed-login'], techniques: ['T1110'] }, alert), true);
  assert.equal(matcherHolds({ minSeverity: 'critical', rules: ['failed-login'], techniques: ['T1110'] }, alert), false);
  assert.equal(matcherHolds({ minSeverity: 'low', rules: ['failed-login'], techniques: ['T1059'] }, alert), false);
});
