import assert from 'node:assert/strict';
import { test } from 'node:test';
import { annotationProblems, techniqueOptions } from '../../src/lib/attack-picker.ts';
import { techniques } from '../../src/lib/attack.ts';

test('every technique and sub-technique of the table is a choice: the id stored, the id and name shown', () => {
  assert.equal(techniqueOptions.length, techniques.size);
  const byId = new Map(techniqueOptions.map((o) => [o.value, o.label]));
  assert.equal(byId.get('T1110'), 'T1110 Brute Force');
  assert.equal(byId.get('T1110.001'), 'T1110.001 Brute Force: Password Guessing');
  // In id order: a technique, then its sub-techniques.
  const i = techniqueOptions.findIndex((o) => o.value === 'T1110');
  assert.equal(techniqueOptions[i + 1]!.value, 'T1110.001');
});

test('annotationProblems: ids not in the table (unknown or retired) are flagged; known ids and other tags are not', () => {
  assert.deepEqual(
    annotationProblems([
      'T1110',
      'attack.t1059.001',
      't1003',
      'attack.execution',
      'G0016',
      'sigma.level=high',
      'sigma.reference=https://attack.mitre.org/techniques/T9999/',
      'my own tag',
    ]),
    [],
  );
  assert.deepEqual(annotationProblems(['T9999', 'attack.t1086', 'T1110.999']), [
    '`T9999` is not an ATT&CK technique in MITRE ATT&CK v18.1 Enterprise',
    '`attack.t1086` is a retired ATT&CK technique (PowerShell): it is not in MITRE ATT&CK v18.1 Enterprise',
    '`T1110.999` is not an ATT&CK technique in MITRE ATT&CK v18.1 Enterprise',
  ]);
});
