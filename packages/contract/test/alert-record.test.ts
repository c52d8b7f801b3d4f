import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertMetadataKey, alertMetadataSchema, readAlert, techniqueIds, type AlertRead } from '../src/alert-record.ts';
import { violationsOf } from './helpers/ajv.ts';

test("technique ids: `TNNNN[.NNN]` and Sigma's `attack.tNNNN[.NNN]`, upper case, each once, in order", () => {
  assert.deepEqual(
    techniqueIds(['attack.t1059.001', 'T1110', 'attack.execution', 'G0016', 't1110', 'sigma.level=high', 'T1003x']),
    ['T1059.001', 'T1110'],
  );
  assert.deepEqual(techniqueIds([]), []);
});

test('the alert metadata schema: id of 32 hex digits, a severity, techniques, time, a source or null', () => {
  const validate = violationsOf(alertMetadataSchema);
  const ok = {
    id: '0123456789abcdef0123456789abcdef',
    severity: 'high',
    techniques: ['T1110'],
    time: 1,
    source: { topic: 'in', partition: 0, offset: 7 },
  };
  assert.equal(alertMetadataKey, '_alert');
  assert.deepEqual(validate(ok), []);
  assert.deepEqual(validate({ ...ok, source: null }), []);
  assert.deepEqual(validate({ ...ok, id: 'x' }), ['/id pattern']);
  assert.deepEqual(validate({ ...ok, severity: 'severe' }), ['/severity enum']);
});

test('readAlert: an alerts-topic record with its _alert and _rule; the same refusals for every reader of the topic', () => {
  const record = {
    user: 'alice',
    _rule: { id: 'r1', name: 'Rule one' },
    _alert: { id: 'b'.repeat(32), severity: 'low', techniques: ['T1110', 3], time: 1.9, source: null },
  };
  assert.deepEqual(readAlert(record), {
    id: 'b'.repeat(32),
    time: 1,
    severity: 'low',
    techniques: ['T1110'],
    source: null,
    rule: { id: 'r1', name: 'Rule one' },
    record,
  });
  assert.deepEqual((readAlert({ _alert: { ...record._alert } }) as AlertRead).rule, { id: null, name: null });
  assert.equal(readAlert('text'), 'the record is not a JSON object');
  assert.equal(readAlert({ _alert: [] }), 'the record has no _alert');
  assert.equal(readAlert({ _alert: { ...record._alert, id: 'B'.repeat(32) } }), '_alert.id is not 32 hex digits');
  assert.equal(readAlert({ _alert: { ...record._alert, time: Infinity } }), '_alert.time is not a number');
  assert.equal(
    readAlert({ _alert: { ...record._alert, severity: undefined } }),
    '_alert.severity is not one of informational, low, medium, high, critical',
  );
});
