import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attackTable, attackVersion } from '../src/index.ts';

test('the shipped ATT&CK table: its version, tactics, techniques and retired ids', () => {
  assert.equal(attackVersion, 'v18.1');
  assert.equal(attackTable.tactics[0]?.shortName, 'reconnaissance');
  assert.equal(attackTable.techniques['T1059.001']?.[0], 'PowerShell');
  assert.equal(attackTable.retired.T1002, 'Data Compressed');
});
