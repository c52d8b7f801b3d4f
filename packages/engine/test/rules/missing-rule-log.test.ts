import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigSnapshot } from '../../src/stream/config-snapshot.ts';
import { MissingRuleLog } from '../../src/rules/missing-rule-log.ts';

const snapshot = (rules: string[], listed: string[]): ConfigSnapshot => ({
  version: 1,
  topologies: [
    {
      id: 1,
      name: 't',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: 'in', keySerde: 'String', valueSerde: 'String' },
      output: [],
    },
  ],
  pipelines: [{ id: 1, name: 'p', tasks: [1] }],
  tasks: [{ id: 1, name: 'detect', function: 'APPLY_RULES', definition: { rules: listed } }],
  rules: rules.map((id) => ({ id, name: id, pdl: 'a = 1', enabled: true })),
});

test('a missing rule is logged once per node, again only after it was fixed and broke again', () => {
  const lines: string[] = [];
  const log = new MissingRuleLog('default', (m) => lines.push(m));
  const line =
    'task 1 (detect) applies rule `failed`, which does not exist; APPLY_RULES skips it (counted in weir_rules_skipped_total, reason missing)';
  log.check(snapshot(['failed-logon'], ['failed-logon', 'failed']));
  log.check(snapshot(['failed-logon'], ['failed-logon', 'failed']));
  assert.deepEqual(lines, [line]);
  log.check(snapshot(['failed-logon', 'failed'], ['failed-logon', 'failed']));
  assert.equal(lines.length, 1, 'fixed: nothing to say');
  log.check(snapshot(['failed-logon'], ['failed-logon', 'failed']));
  assert.deepEqual(lines, [line, line]);
});
