import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintRuleReferences } from '../src/index.ts';

test('lintRuleReferences: unknown ids, a fix for a close one when placed in a text', () => {
  const range = { line: 3, column: 5, endLine: 3, endColumn: 10 };
  assert.deepEqual(
    lintRuleReferences(['rule-a', 'rul-b', 'other', 7], ['rule-a', 'rule-b'], (i) => (i === 1 ? range : undefined)),
    [
      {
        code: 'RULE_UNKNOWN',
        severity: 'warning',
        message: 'rule `rul-b` does not exist: the task skips it and it never fires (did you mean `rule-b`?)',
        ...range,
        path: 'definition.rules[1]',
        fix: { title: 'Use rule `rule-b`', edits: [{ range, text: 'rule-b' }] },
      },
      {
        code: 'RULE_UNKNOWN',
        severity: 'warning',
        message: 'rule `other` does not exist: the task skips it and it never fires',
        line: 0,
        column: 0,
        path: 'definition.rules[2]',
      },
    ],
  );
});
