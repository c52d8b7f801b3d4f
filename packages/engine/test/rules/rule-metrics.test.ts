import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleMatches, ruleMetricNames } from '../../src/rules/rule-metrics.ts';
import { metricNames } from '../../src/stream/metric-names.ts';

test('the rule metrics keep their names, listed with every other metric name', () => {
  assert.deepEqual(ruleMetricNames, {
    ruleMatches: 'weir_rule_matches_total',
    rulesSkipped: 'weir_rules_skipped_total',
    ruleSuppressed: 'weir_rule_suppressed_total',
  });
  assert.equal(metricNames.ruleSuppressed, 'weir_rule_suppressed_total');
  assert.equal(metricNames.ruleMatches, 'weir_rule_matches_total');
  assert.equal(metricNames.rulesSkipped, 'weir_rules_skipped_total');
});

test('matches are tallied per rule and added to the stats once, then start over', () => {
  const added: [string, readonly string[], number | undefined][] = [];
  const stats = { add: (name: string, labels: readonly string[], delta?: number) => added.push([name, labels, delta]) };
  const matches = new RuleMatches();
  const task = { id: 1, name: 'detect', function: 'APPLY_RULES' };
  matches.ruleMatched(task, 'a');
  matches.ruleMatched(task, 'b');
  matches.ruleMatched(task, 'a');
  matches.drainInto(stats);
  assert.deepEqual(added, [
    ['weir_rule_matches_total', ['a'], 2],
    ['weir_rule_matches_total', ['b'], 1],
  ]);
  matches.drainInto(stats);
  assert.equal(added.length, 2, 'nothing new: nothing added');
});

test("a suppression's outcomes are tallied per rule and outcome, drained with the matches", () => {
  const added: [string, readonly string[], number | undefined][] = [];
  const stats = { add: (name: string, labels: readonly string[], delta?: number) => added.push([name, labels, delta]) };
  const matches = new RuleMatches();
  matches.ruleSuppressed(null, 'a', 'suppressed');
  matches.ruleSuppressed(null, 'a', 'suppressed');
  matches.ruleSuppressed(null, 'a', 'late');
  matches.drainInto(stats);
  matches.drainInto(stats);
  assert.deepEqual(added, [
    ['weir_rule_suppressed_total', ['a', 'suppressed'], 2],
    ['weir_rule_suppressed_total', ['a', 'late'], 1],
  ]);
});
