import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Rule } from '@weir/contract';
import { filterFacets, filterRules, ruleFacets, sortRules } from '../../src/pages/rule-filter.ts';

const rule = (id: string, annotations: string[], more: Partial<Rule> = {}): Rule => ({
  id,
  name: id,
  description: '',
  pdl: 'a=1',
  annotations,
  enabled: true,
  ...more,
});

const imported = rule('sigma-1', [
  'T1059.001',
  'attack.execution',
  'attack.t1110',
  'G0016',
  'sigma.id=5f1d…',
  'sigma.level=High',
  'sigma.reference=https://attack.mitre.org/techniques/T1003/',
]);

test('ruleFacets: severity from sigma.level (no severity of its own), technique ids only (no URL, tactic or metadata), tactics in matrix order', () => {
  assert.deepEqual(ruleFacets(imported), {
    severity: 'high',
    techniques: ['T1059.001', 'T1110'],
    tactics: ['execution', 'credential-access'],
  });
  assert.deepEqual(ruleFacets(rule('plain', ['T1110.001', 'https://example.com/T1003'])), {
    severity: 'medium',
    techniques: ['T1110.001'],
    tactics: ['credential-access'],
  });
  // A tactic newer than the shipped table is kept, after the table's.
  assert.deepEqual(ruleFacets(rule('new', ['attack.stealth', 'T1110'])).tactics, ['credential-access', 'stealth']);
});

const rules = [
  rule('r10', ['sigma.level=low', 'T1110'], { name: 'Beta' }),
  rule('r2', ['sigma.level=critical', 'T1059'], { name: 'alpha', enabled: false }),
  rule('r1', [], { name: 'Gamma' }),
  rule('r3', ['sigma.level=high', 'attack.persistence'], { name: 'beta' }),
];
const ids = (rs: readonly Rule[]) => rs.map((r) => r.id);

test('filterFacets: by severity (medium for rules without one) and by tactic, both together', () => {
  assert.deepEqual(ids(filterFacets(rules, {})), ['r10', 'r2', 'r1', 'r3']);
  assert.deepEqual(ids(filterFacets(rules, { severity: 'high' })), ['r3']);
  assert.deepEqual(ids(filterFacets(rules, { severity: 'medium' })), ['r1']);
  assert.deepEqual(ids(filterFacets(rules, { tactic: 'credential-access' })), ['r10']);
  assert.deepEqual(ids(filterFacets(rules, { tactic: 'persistence' })), ['r3']);
  assert.deepEqual(ids(filterFacets(rules, { tactic: 'execution', severity: 'critical' })), ['r2']);
  assert.deepEqual(ids(filterFacets(rules, { tactic: 'execution', severity: 'low' })), []);
});

test('sortRules: by id and name as people read them, by enabled, by severity; ties in ascending id order', () => {
  assert.deepEqual(ids(sortRules(rules, { key: 'id', direction: 'ascending' })), ['r1', 'r2', 'r3', 'r10']);
  assert.deepEqual(ids(sortRules(rules, { key: 'id', direction: 'descending' })), ['r10', 'r3', 'r2', 'r1']);
  // `beta` and `Beta` tie (case is ignored): id order.
  assert.deepEqual(ids(sortRules(rules, { key: 'name', direction: 'ascending' })), ['r2', 'r3', 'r10', 'r1']);
  assert.deepEqual(ids(sortRules(rules, { key: 'enabled', direction: 'ascending' })), ['r2', 'r1', 'r3', 'r10']);
  assert.deepEqual(ids(sortRules(rules, { key: 'severity', direction: 'descending' })), ['r2', 'r3', 'r1', 'r10']);
  assert.deepEqual(ids(sortRules(rules, { key: 'severity', direction: 'ascending' })), ['r10', 'r1', 'r3', 'r2']);
  // The input is not reordered.
  assert.deepEqual(ids(rules), ['r10', 'r2', 'r1', 'r3']);
});

test("a rule's own severity wins over a Sigma level; an unknown level counts as medium", () => {
  const odd = [
    rule('a', []),
    rule('b', ['sigma.level=weird']),
    rule('c', ['sigma.level=informational']),
    rule('d', ['sigma.level=informational'], { severity: 'critical' }),
  ];
  assert.deepEqual(
    odd.map((r) => ruleFacets(r).severity),
    ['medium', 'medium', 'informational', 'critical'],
  );
  assert.deepEqual(ids(sortRules(odd, { key: 'severity', direction: 'descending' })), ['d', 'a', 'b', 'c']);
});

test('filterRules: the search still finds id, name, PDL and annotations', () => {
  assert.deepEqual(ids(filterRules(rules, 'BETA')), ['r10', 'r3']);
  assert.deepEqual(ids(filterRules(rules, 'persistence')), ['r3']);
});
