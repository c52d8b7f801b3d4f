import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleSchema } from '../src/resources.ts';
import { defaultSeverity, isSeverity, severities, severityOf, severityRank } from '../src/severity.ts';
import { violationsOf } from './helpers/ajv.ts';

test("the five severities are Sigma's levels, least severe first; medium is the default", () => {
  assert.deepEqual(severities, ['informational', 'low', 'medium', 'high', 'critical']);
  assert.equal(defaultSeverity, 'medium');
  assert.deepEqual(severities.map(severityRank), [0, 1, 2, 3, 4]);
  assert.equal(severityRank('severe'), -1);
  assert.ok(isSeverity('high') && !isSeverity('High') && !isSeverity(3));
});

test("a rule's severity: its own, else a Sigma import's valid sigma.level annotation, else medium", () => {
  assert.equal(severityOf({ severity: 'critical', annotations: ['sigma.level=low'] }), 'critical');
  assert.equal(severityOf({ annotations: ['T1110', 'sigma.level=High'] }), 'high');
  assert.equal(severityOf({ annotations: ['sigma.level=severe', 'sigma.level=low'] }), 'low');
  assert.equal(severityOf({ annotations: ['sigma.level=severe'] }), 'medium');
  assert.equal(severityOf({}), 'medium');
});

test('a rule may name one of the five severities; anything else is refused at /severity', () => {
  const validate = violationsOf(ruleSchema);
  const rule = { id: 'r', name: 'R', pdl: 'a=1', enabled: true };
  for (const severity of severities) assert.deepEqual(validate({ ...rule, severity }), []);
  assert.deepEqual(validate(rule), []);
  assert.deepEqual(validate({ ...rule, severity: 'High' }), ['/severity enum']);
  assert.deepEqual(validate({ ...rule, severity: 3 }), ['/severity type', '/severity enum']);
});
