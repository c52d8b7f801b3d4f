import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '@weir/pdl';
import type { RuleEntry, RuleSkipReason, RuleSource, TaskIdentity } from '../../src/tasks/task-function.ts';
import { T0, errorOf, makeTask, run, violations } from './task-harness.ts';

function rule(id: string, pdl: string, enabled = true): RuleEntry {
  return { id, name: `Rule ${id}`, annotations: [`attack.${id}`], enabled, compiled: compile(pdl) };
}

/** A task result with the records' `rule` left out, to compare what is written. */
function withoutRules(result: ReturnType<typeof run>): unknown {
  if (result.kind !== 'alerts') return result;
  return { ...result, records: result.records.map(({ value, timestamp }) => ({ value, timestamp })) };
}

function source(...rules: RuleEntry[]): RuleSource & { set(r: RuleEntry): void; delete(id: string): void } {
  const map = new Map(rules.map((r) => [r.id, r]));
  return { get: (id) => map.get(id), set: (r) => map.set(r.id, r), delete: (id) => map.delete(id) };
}

test('every match, in the listed order, yields an alert: rule output plus _rule, and the rule it came from', () => {
  const [r1, r2] = [rule('r1', 'user="bob"'), rule('r2', 'port=443 | eval risk="high"')];
  const rules = source(r1, r2, rule('r3', 'user="eve"'));
  const task = makeTask('APPLY_RULES', { rules: ['r2', 'r1', 'r3'] }, { rules });
  const result = run(task, { user: 'bob', port: 443 });
  // the rule beside each alert (for the alerts topic's `_alert`, docs/alerts.md), not in its value
  assert.deepEqual(result.kind === 'alerts' ? result.records.map((r) => r.rule) : [], [r2, r1]);
  assert.deepEqual(withoutRules(result), {
    kind: 'alerts',
    records: [
      {
        value: {
          user: 'bob',
          port: 443,
          risk: 'high',
          _rule: { id: 'r2', name: 'Rule r2', annotations: ['attack.r2'] },
        },
        timestamp: T0,
      },
      {
        value: { user: 'bob', port: 443, _rule: { id: 'r1', name: 'Rule r1', annotations: ['attack.r1'] } },
        timestamp: T0,
      },
    ],
  });
});

test("alerts of one event are objects of their own, sharing the event's nested values (the pipeline copies them for later tasks)", () => {
  const rules = source(rule('a', 'x.y=1'), rule('b', 'x.y=1'));
  const event = { x: { y: 1 } };
  const result = run(makeTask('APPLY_RULES', { rules: ['a', 'b'] }, { rules }), event);
  assert.equal(result.kind, 'alerts');
  const [first, second] = result.kind === 'alerts' ? result.records : [];
  assert.notStrictEqual(first?.value, second?.value);
  assert.notStrictEqual(first?.value, event);
  assert.deepEqual(event, { x: { y: 1 } });
  assert.strictEqual((first?.value as { x: object }).x, (second?.value as { x: object }).x);
});

test('matchAll=false: only the first match', () => {
  const rules = source(rule('r1', 'a=1'), rule('r2', 'a=1'));
  const result = run(makeTask('APPLY_RULES', { rules: ['r1', 'r2'], matchAll: false }, { rules }), { a: 1 });
  assert.equal(result.kind, 'alerts');
  assert.deepEqual(
    result.kind === 'alerts' ? result.records.map((r) => (r.value as { _rule: { id: string } })._rule.id) : [],
    ['r1'],
  );
});

test('no match: nothing goes further', () => {
  const rules = source(rule('r1', 'a=1'));
  assert.deepEqual(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), { a: 2 }), {
    kind: 'records',
    records: [],
  });
  assert.deepEqual(run(makeTask('APPLY_RULES', { rules: [] }, { rules }), { a: 2 }), { kind: 'records', records: [] });
});

test('disabled and missing rules are skipped and counted', () => {
  const skipped: string[] = [];
  const counters = {
    ruleSkipped: (task: TaskIdentity, id: string, reason: RuleSkipReason) =>
      skipped.push(`${task.function}:${id}:${reason}`),
  };
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
    return result.kind === 'alerts'
      ? result.records.map((r) => (r.value as { _rule: { name: string } })._rule.name)
      : [];
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
  assert.deepEqual(result.kind === 'alerts' ? (result.records[0]?.value as { _rule: object })._rule : null, {
    id: 'burst',
    name: 'Rule burst',
    annotations: ['attack.burst'],
  });
});

test('text input is parsed as JSON; definition needs rules', () => {
  const rules = source(rule('r1', 'a=1'));
  assert.equal(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), '{"a":1}').kind, 'alerts');
  assert.match(
    errorOf(run(makeTask('APPLY_RULES', { rules: ['r1'] }, { rules }), 'a=1')),
    /^the record is text that is not JSON/,
  );
  assert.deepEqual(violations('APPLY_RULES', {}), ['definition.rules: is required']);
  assert.deepEqual(violations('APPLY_RULES', { rules: 'r1', matchAll: 'yes' }), [
    'definition.rules: must be array',
    'definition.matchAll: must be boolean',
  ]);
});

// ---- the rule index (RuleIndex of @weir/pdl) --------------------------------------------------

/** A RuleSource with a version, like the engine's RuleBook. */
function versioned(
  ...rules: RuleEntry[]
): RuleSource & { version: number; set(r: RuleEntry): void; delete(id: string): void } {
  const map = new Map(rules.map((r) => [r.id, r]));
  const s = {
    version: 1,
    get: (id: string) => map.get(id),
    set: (r: RuleEntry) => {
      map.set(r.id, r);
      s.version++;
    },
    delete: (id: string) => {
      map.delete(id);
      s.version++;
    },
  };
  return s;
}

/** 200 rules: indexable ones (=, IN, numbers and numerals, nested, arrays), wildcards, OR, disabled, missing. */
function manyRules(): RuleEntry[] {
  const out: RuleEntry[] = [];
  for (let i = 0; i < 200; i++) {
    const kind = i % 8;
    const pdl =
      kind === 0
        ? `EventID = ${i % 5} AND Image = "img${i % 13}"`
        : kind === 1
          ? `EventID = ${i % 5} AND user IN ["u${i % 7}", "u${(i + 1) % 7}"] AND cmd ?= "x"`
          : kind === 2
            ? `port = ${400 + (i % 9)} AND tags = "t${i % 4}"`
            : kind === 3
              ? `host.name = "h${i % 6}" | eval hit = ${i}`
              : kind === 4
                ? `Image = "img*" AND user = "u${i % 7}"`
                : kind === 5
                  ? `EventID = ${i % 5} OR port = "40${i % 9}"`
                  : kind === 6
                    ? `tags IN ["t${i % 4}", "t9"] AND NOT user = "u1"`
                    : `cmd ~= "x+y" AND port > ${i}`;
    out.push(rule(`r${i}`, pdl, i % 37 !== 5));
  }
  return out;
}

function manyEvents(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 300; i++) {
    const e: Record<string, unknown> = {
      EventID: next(6),
      Image: `img${next(15)}`,
      user: `u${next(8)}`,
      cmd: ['xy', 'xxy', 'z', 'x'][next(4)],
    };
    if (next(3) > 0) e['port'] = next(2) === 0 ? 400 + next(10) : String(400 + next(10));
    if (next(2) === 0) e['tags'] = next(2) === 0 ? `t${next(5)}` : [`t${next(5)}`, `t${next(10)}`];
    if (next(2) === 0) e['host'] = { name: `h${next(7)}` };
    events.push(e);
  }
  return events;
}

/** What APPLY_RULES did before the index: every listed rule in order. */
function reference(entries: RuleEntry[], ids: string[], event: Record<string, unknown>, matchAll: boolean): string[] {
  const byId = new Map(entries.map((r) => [r.id, r]));
  const hits: string[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r === undefined || !r.enabled || r.compiled.run(event) === null) continue;
    hits.push(id);
    if (!matchAll) break;
  }
  return hits;
}

const ruleIds = (result: ReturnType<typeof run>): string[] =>
  result.kind === 'alerts' ? result.records.map((r) => (r.value as { _rule: { id: string } })._rule.id) : [];

test('with 200 rules the index gives the same alerts, in the same order, as evaluating every rule', () => {
  const entries = manyRules();
  const ids = [...entries.map((r) => r.id).reverse(), 'gone'];
  for (const matchAll of [true, false]) {
    for (const rules of [source(...entries), versioned(...entries)]) {
      const skipped: string[] = [];
      const counters = { ruleSkipped: (_task: TaskIdentity, id: string) => skipped.push(id) };
      const task = makeTask('APPLY_RULES', { rules: ids, matchAll }, { rules, counters });
      let alerts = 0;
      for (const event of manyEvents()) {
        const expected = reference(entries, ids, event, matchAll);
        const result = run(task, event);
        assert.deepEqual(ruleIds(result), expected, JSON.stringify(event));
        if (result.kind === 'alerts') {
          const { _rule, ...output } = result.records[0]?.value as Record<string, unknown>;
          assert.deepEqual(output, entries.find((r) => r.id === expected[0])?.compiled.run(event));
          assert.equal((_rule as { id: string }).id, expected[0]);
        }
        alerts += expected.length;
      }
      assert.ok(alerts > 100, `${alerts} alerts`);
      if (matchAll) assert.equal(skipped.length, 300 * 7); // 6 disabled and 1 missing, every record
    }
  }
});

test('disabled and missing rules are counted on every record, also when the index skips every other rule', () => {
  const skipped: string[] = [];
  const counters = {
    ruleSkipped: (_task: TaskIdentity, id: string, reason: RuleSkipReason) => skipped.push(`${id}:${reason}`),
  };
  const rules = versioned(rule('a', 'x = 1'), rule('off', 'x = 1', false), rule('b', 'y = 2'));
  const task = makeTask('APPLY_RULES', { rules: ['a', 'off', 'gone', 'b'] }, { rules, counters });
  assert.deepEqual(run(task, { z: 3 }), { kind: 'records', records: [] });
  assert.deepEqual(ruleIds(run(task, { x: 1, y: 2 })), ['a', 'b']);
  assert.deepEqual(skipped, ['off:disabled', 'gone:missing', 'off:disabled', 'gone:missing']);
});

test('a versioned RuleSource: changes apply when its version changes; names change without a new index', () => {
  const rules = versioned(rule('r', 'a = 1'), rule('s', 'b = 2'));
  const task = makeTask('APPLY_RULES', { rules: ['r', 's'] }, { rules });
  assert.deepEqual(ruleIds(run(task, { a: 1, b: 2 })), ['r', 's']);
  rules.set(rule('r', 'a = 2'));
  assert.deepEqual(ruleIds(run(task, { a: 1, b: 2 })), ['s']);
  assert.deepEqual(ruleIds(run(task, { a: 2 })), ['r']);
  const s = rules.get('s') as RuleEntry;
  rules.set({ ...s, name: 'renamed' });
  const result = run(task, { b: 2 });
  assert.deepEqual(
    result.kind === 'alerts' ? (result.records[0]?.value as { _rule: { name: string } })._rule.name : null,
    'renamed',
  );
  rules.set({ ...s, enabled: false });
  assert.deepEqual(ruleIds(run(task, { a: 2, b: 2 })), ['r']);
  rules.delete('r');
  assert.deepEqual(ruleIds(run(task, { a: 2, b: 2 })), []);
});

test('correlation rules see every event, even with an indexable first stage', () => {
  const rules = versioned(
    rule('burst', 'user = "u" | event_count timespan=1m group_by user where _aggregation.value >= 3'),
    rule('plain', 'user = "v"'),
  );
  const task = makeTask('APPLY_RULES', { rules: ['plain', 'burst'] }, { rules });
  assert.deepEqual(ruleIds(run(task, { user: 'u' }, T0)), []);
  assert.deepEqual(ruleIds(run(task, { user: 'v' }, T0 + 1)), ['plain']);
  assert.deepEqual(ruleIds(run(task, { user: 'u' }, T0 + 2)), []);
  assert.deepEqual(ruleIds(run(task, { user: 'u' }, T0 + 3)), ['burst']);
});

test('prepare resolves the listed rules and builds their index ahead of the first record', () => {
  const rules = versioned(rule('r', 'a = 1'), rule('s', 'b = 2'));
  const asked: string[] = [];
  const counted = { ...rules, get: (id: string) => (asked.push(id), rules.get(id)) };
  Object.defineProperty(counted, 'version', { get: () => rules.version });
  const task = makeTask('APPLY_RULES', { rules: ['r', 's'] }, { rules: counted });
  assert.deepEqual(asked, []);
  task.prepare?.();
  assert.deepEqual(asked, ['r', 's']);
  // the records that follow find the rules resolved (the version is unchanged): no look-up on the record path
  assert.deepEqual(ruleIds(run(task, { a: 1, b: 2 })), ['r', 's']);
  assert.deepEqual(asked, ['r', 's']);
  // a new version: prepared again when the worker takes the task into its next plan
  rules.set(rule('r', 'a = 2'));
  task.prepare?.();
  const prepared = asked.length;
  assert.ok(prepared > 2);
  assert.deepEqual(ruleIds(run(task, { a: 2, b: 2 })), ['r', 's']);
  assert.equal(asked.length, prepared);
});
