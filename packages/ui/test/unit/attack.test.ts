import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Rule } from '@weir/client';
import { tactics, techniqueId, techniqueName, techniques } from '../../src/lib/attack.ts';
import { annotatesTechnique, coverage } from '../../src/pages/coverage.ts';
import { filterRules } from '../../src/pages/rule-filter.ts';

const rule = (id: string, annotations: string[], enabled = true): Rule => ({
  id,
  name: id,
  description: '',
  pdl: 'a=1',
  annotations,
  enabled,
});

test('the shipped ATT&CK table is the full Enterprise matrix: 14 tactics in order, every technique with its tactics', () => {
  assert.deepEqual(
    tactics.map((t) => t.id),
    [
      'TA0043',
      'TA0042',
      'TA0001',
      'TA0002',
      'TA0003',
      'TA0004',
      'TA0005',
      'TA0006',
      'TA0007',
      'TA0008',
      'TA0009',
      'TA0011',
      'TA0010',
      'TA0040',
    ],
  );
  const parents = [...techniques.values()].filter((t) => !t.parent);
  assert.ok(parents.length >= 200, `${parents.length} techniques`);
  assert.ok(techniques.size >= 600, `${techniques.size} techniques and sub-techniques`);
  for (const t of techniques.values()) {
    assert.ok(t.tactics.length > 0, `${t.id} has a tactic`);
    for (const name of t.tactics)
      assert.ok(
        tactics.some((x) => x.shortName === name),
        `${t.id}: ${name} is a tactic of the matrix`,
      );
    if (t.parent) assert.ok(techniques.has(t.parent), `${t.id}'s parent ${t.parent} is in the table`);
  }
  assert.deepEqual(techniques.get('T1110')?.tactics, ['credential-access']);
});

test('technique ids and names from annotations in every form', () => {
  assert.equal(techniqueId('T1110'), 'T1110');
  assert.equal(techniqueId('attack.t1110.001'), 'T1110.001');
  assert.equal(techniqueId('attack.credential_access'), undefined);
  assert.equal(techniqueId('T11100'), undefined);
  assert.equal(techniqueName('T1110'), 'Brute Force');
  assert.equal(techniqueName('attack.t1110.001'), 'Brute Force: Password Guessing');
  assert.equal(techniqueName('T9999'), undefined);
  // A revoked id keeps its old name.
  assert.match(techniqueName('T1086') ?? '', /PowerShell \(retired\)/);
});

test('coverage counts enabled rules only, through sub-techniques, and names what it cannot place', () => {
  const cov = coverage([
    rule('a', ['attack.t1110.001']),
    rule('b', ['T1110', 'T1110.003']),
    rule('c', ['T1059.004'], false),
    rule('d', ['T9999', 'attack.discovery']),
  ]);
  assert.equal(cov.covered, 1);
  assert.equal(cov.enabledRules, 3);
  const credential = cov.columns.find((c) => c.tactic.id === 'TA0006')!;
  const brute = credential.cells.find((c) => c.technique.id === 'T1110')!;
  assert.equal(brute.ruleCount, 2);
  assert.deepEqual(
    brute.direct.map((r) => r.id),
    ['b'],
  );
  assert.deepEqual(
    brute.subs.map((s) => [s.technique.id, s.rules.map((r) => r.id)]),
    [
      ['T1110.001', ['a']],
      ['T1110.003', ['b']],
    ],
  );
  assert.equal(credential.covered, 1);
  assert.ok(cov.columns.every((c) => c.tactic.id === 'TA0006' || c.covered === 0));
  assert.deepEqual([...cov.unknown], [['T9999', ['d']]]);
  assert.deepEqual(cov.disabledOnly, ['T1059.004']);
  assert.equal(annotatesTechnique(rule('x', ['T1110.001']), 'T1110'), true);
  assert.equal(annotatesTechnique(rule('x', ['T11100']), 'T1110'), false);
});

test('the rules search matches id, name, PDL and annotations in any case', () => {
  const rules = [rule('r-1', ['T1110']), { ...rule('r-2', []), name: 'Failed LOGIN', pdl: 'user="Bob"' }];
  assert.deepEqual(
    filterRules(rules, 't1110').map((r) => r.id),
    ['r-1'],
  );
  assert.deepEqual(
    filterRules(rules, 'login').map((r) => r.id),
    ['r-2'],
  );
  assert.deepEqual(
    filterRules(rules, 'bob').map((r) => r.id),
    ['r-2'],
  );
  assert.deepEqual(filterRules(rules, '  ').length, 2);
  assert.deepEqual(filterRules(rules, 'nothing'), []);
});
