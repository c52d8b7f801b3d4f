import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import type { RuleEntry, RuleSkipReason, RuleSource, TaskIdentity } from '../../src/tasks/task-function.ts';
import { T0, errorOf, makeTask, run, violations } from './task-harness.ts';

function rule(id: string, pdl: string, enabled = true): RuleEntry {
  return { id, name: `Rule ${id}`, annotations: [`attack.${id}`], enabled, compiled: compile(pdl) };
}

function source(...rules: RuleEntry[]): RuleSource & { set(r: RuleEntry): void; delete(id: string): void } {
  const map = new Map(rules.map((r) => [r.id, r]));
  return { get: (id) => map.get(id), set: (r) => map.set(r.id, r), delete: (id) => map.delete(id) };
}

test('every match, in the listed order, yields an alert: rule output plus _rule', () => {
  const rules = source(rule('r1', 'user="bob"'), rule('r2', 'port=443 | eval risk="high"'), rule('r3', 'user="eve"'));
  const task = makeTask('APPLY_RULES', { rules: ['r2', 'r1', 'r3'] }, { rules });
  assert.deepEqual(run(task, { user: 'bob', port: 443 }), {
    kind: 'alerts',
    records: [
      { value: { user: 'bob', port: 443, risk: 'high', _rule: { id: 'r2', name: 'Rule r2', annotations: ['attack.r2'] } }, timestamp: T0 },
      { value: { user: 'bob', port: 443, _rule: { id: 'r1', name: 'Rule r1', annotations: ['attack.r1'] } }, timestamp: T0 },
    ],
  });
});

test('alerts do not share objects with each other', () => {
  const rules = source(rule('a', 'x.y=1'), rule('b', 'x.y=1'));
  const result = run(makeTask('APPLY_RULES', { rules: ['a', 'b'] }, { rules }), { x: { y: 1 } });
  assert.equal(result.kind, 'alerts');
  const [first, second] = result.kind === 'alerts' ? result.records : [];
  assert.notStrictEqual((first?.value as { x: object }).x, (second?.value as { x: object }).x);
});

test('matchAll=false: only the first match', () => {
  const rules = source(rule('r1', 'a=1'), rule('r2', 'a=1'));
  const result = run(makeTask('APPLY_RULES', { rules: ['r1', 'r2'], matchAll: false }, { rules }), { a: 1 });
  assert.equal(result.kind, 'alerts');
  assert.deepEqual(result.kind === 'alerts' ? result.records.map((r) => (r.value as { _rule: { id: string } })._rule.id) : [], ['r1']);
});

test('no match: nothing goes further', () => {
  const rules = source(rule('r1', 'a=1'));
  assert.deepEqual(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), { a: 2 }), { kind: 'records', records: [] });
  assert.deepEqual(run(makeTask('APPLY_RULES', { rules: [] }, { rules }), { a: 2 }), { kind: 'records', records: [] });
});

test('disabled and missing rules are skipped and counted', () => {
  const skipped: string[] = [];
  const counters = { ruleSkipped: (task: TaskIdentity, id: string, reason: RuleSkipReason) => skipped.push(`${task.function}:${id}:${reason}`) };
  const rules = source(rule('off', 'a=1', false), rule('on', 'a=1'));
  const result = run(makeTask('APPLY_RULES', { rules: ['off', 'gone', 'on'] }, { rules, counters }), { a: 1 });
  assert.equal(result.kind, 'alerts');
  assert.equal(result.kind === 'alerts' ? result.records.length : 0, 1);
  assert.deepEqual(skipped, ['APPLY_RULES:off:disabled', 'APPLY_RULES:gone:missing']);
});

test('rules are resolved per record: created, changed, disabled, deleted rules apply without recompiling', () => {
  const rules = source();
  const task = makeTask('APPLY_RULES', { rules: ['r'] }, { rules });
  const ids = () => {
    const result = run(task, { a: 1, b: 2 });
    return result.kind === 'alerts' ? result.records.map((r) => (r.value as { _rule: { name: string } })._rule.name) : [];
  };
  assert.deepEqual(ids(), []);
  rules.set(rule('r', 'a=1'));
  assert.deepEqual(ids(), ['Rule r']);
  rules.set({ ...rule('r', 'a=2'), name: 'changed' });
  assert.deepEqual(ids(), []);
  rules.set({ ...rule('r', 'b=2'), name: 'changed' });
  assert.deepEqual(ids(), ['changed']);
  rules.set(rule('r', 'b=2', false));
  assert.deepEqual(ids(), []);
  rules.delete('r');
  assert.deepEqual(ids(), []);
});

test('correlation rules raise alerts from their emitted events', () => {
  const rules = source(rule('burst', 'event_count timespan=1m group_by user where _aggregation.value >= 2'));
  const task = makeTask('APPLY_RULES', { rules: ['burst'] }, { rules });
  assert.equal(run(task, { user: 'u' }).kind, 'records');
  const result = run(task, { user: 'u' }, T0 + 10);
  assert.equal(result.kind, 'alerts');
  assert.deepEqual(result.kind === 'alerts' ? (result.records[0]?.value as { _rule: object })._rule : null, { id: 'burst', name: 'Rule burst', annotations: ['attack.burst'] });
});

test('text input is parsed as JSON; definition needs rules', () => {
  const rules = source(rule('r1', 'a=1'));
  assert.equal(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), '{"a":1}').kind, 'alerts');
  assert.match(errorOf(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), 'a=1')), /^the record is text that is not JSON/);
  assert.deepEqual(violations('APPLY_RULES', {}), ['definition.rules: is required']);
  assert.deepEqual(violations('APPLY_RULES', { rules: 'r1', matchAll: 'yes' }), ['definition.rules: must be array', 'definition.matchAll: must be boolean']);
});
