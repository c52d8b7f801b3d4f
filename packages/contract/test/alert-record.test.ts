import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertMetadataKey, alertMetadataSchema, techniqueIds } from '../src/alert-record.ts';
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
