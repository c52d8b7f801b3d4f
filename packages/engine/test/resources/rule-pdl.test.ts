import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateRulePdl } from '../../src/resources/rule-pdl.ts';

const ctx = { lookups: { get: (id: string) => (id === 'ips' ? { rows: [{ ip: '10.0.0.1', risk: 9 }] } : undefined) } };

test('rule PDL: compiles, names line and column, and knows the stored lookups', () => {
  assert.deepEqual(validateRulePdl('a = 1', ctx), []);
  assert.deepEqual(validateRulePdl('a = 1\n| lookup ips ip OUTPUT risk', ctx), []);
  assert.deepEqual(validateRulePdl('a = 1 | lookup other ip OUTPUT risk', ctx), [
    "pdl: line 1, column 16: unknown lookup 'other'",
  ]);
  assert.deepEqual(validateRulePdl('a = ', ctx), [
    "pdl: line 1, column 5: expected a value after '=', found end of input",
  ]);
});
