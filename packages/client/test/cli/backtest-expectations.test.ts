import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkExpectations, describeExpectation, parseExpectations } from '../../src/cli/backtest-expectations.ts';
import type { BacktestResult } from '../../src/cli/backtest-run.ts';

const ids = ['root-login', 'brute-force', 'whoami'];

const result = (matches: Record<string, number>): BacktestResult => ({
  events: 10,
  rules: ids.map((id) => ({
    id,
    where: `rules/${id}.pdl`,
    source: 'pdl' as const,
    enabled: true,
    matches: matches[id] ?? 0,
    first: [],
    evaluationErrors: 0,
    lateEvents: 0,
  })),
});

test('an expectations file: exactly, atLeast and atMost, a number alone, othersMayFire; each rule id with its line', () => {
  const e = parseExpectations(
    'othersMayFire: false\nrules:\n  root-login: { exactly: 2 }\n  brute-force:\n    atLeast: 1\n    atMost: 3\n  whoami: 0\n',
    'expect.yml',
    ids,
  );
  assert.deepEqual(e, {
    file: 'expect.yml',
    othersMayFire: false,
    rules: [
      { rule: 'root-login', where: 'expect.yml:3:3', exactly: 2 },
      { rule: 'brute-force', where: 'expect.yml:4:3', atLeast: 1, atMost: 3 },
      { rule: 'whoami', where: 'expect.yml:7:3', exactly: 0 },
    ],
  });
  assert.equal(parseExpectations('rules: {}\n', 'e.yml', ids).othersMayFire, true);
  assert.deepEqual(e.rules.map(describeExpectation), ['exactly 2', 'at least 1 and at most 3', 'exactly 0']);
});

test('an unknown rule id is an error naming the file, line, column and the id, and the rules there are', () => {
  assert.throws(
    () => parseExpectations('rules:\n  root-login: 1\n  root-logn: { exactly: 2 }\n', 'tests/expect.yml', ids),
    {
      name: 'UsageError',
      message:
        "tests/expect.yml:3:3: unknown rule 'root-logn': no rule of --rules has this id (3 rule(s): root-login, brute-force, whoami)",
    },
  );
});

test('every other mistake names where it is', () => {
  const cases: [string, string][] = [
    ['rules: [1\n', 'e.yml:2:1: not valid YAML: '],
    ['- 1\n', 'e.yml:1:1: an expectations file is a map with rules (and othersMayFire)'],
    ['rule:\n  whoami: 1\n', "e.yml:1:1: unknown key 'rule' (an expectations file has rules and othersMayFire)"],
    ['othersMayFire: no\nrules: {}\n', 'e.yml:1:16: othersMayFire must be true or false'],
    ['othersMayFire: true\n', 'e.yml:1:1: rules must be a map of rule id to expected matches'],
    [
      'rules:\n  whoami: { exctly: 1 }\n',
      "e.yml:2:13: rule 'whoami': unknown key 'exctly' (one of exactly, atLeast, atMost)",
    ],
    ['rules:\n  whoami: { exactly: -1 }\n', 'e.yml:2:22: whoami.exactly must be a whole number from 0, found -1'],
    ['rules:\n  whoami: { atLeast: 1.5 }\n', 'e.yml:2:22: whoami.atLeast must be a whole number from 0, found 1.5'],
    ['rules:\n  whoami: "2"\n', 'e.yml:2:11: whoami must be a whole number from 0, found "2"'],
    [
      'rules:\n  whoami: { exactly: 1, atMost: 2 }\n',
      "e.yml:2:11: rule 'whoami': exactly cannot go with atLeast or atMost",
    ],
    ['rules:\n  whoami: { atLeast: 3, atMost: 2 }\n', "e.yml:2:11: rule 'whoami': atLeast 3 is more than atMost 2"],
    ['rules:\n  whoami: {}\n', "e.yml:2:11: rule 'whoami': give exactly, atLeast or atMost"],
    ['rules:\n  whoami: 1\n  whoami: 2\n', 'e.yml:3:3: not valid YAML: Map keys must be unique'],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseExpectations(text, 'e.yml', ids),
      (err: Error) => {
        assert.equal(err.name, 'UsageError');
        assert.ok(err.message.startsWith(message), `${JSON.stringify(text)}: ${err.message}`);
        return true;
      },
    );
  }
});

test('checking: expected against actual per rule, and the rules that fired unlisted when others may not', () => {
  const e = parseExpectations(
    'othersMayFire: false\nrules:\n  root-login: { exactly: 2 }\n  brute-force: { atLeast: 1, atMost: 3 }\n',
    'e.yml',
    ids,
  );
  assert.deepEqual(checkExpectations(e, result({ 'root-login': 2, 'brute-force': 2 })), [
    { name: 'rule root-login: exactly 2', passed: true },
    { name: 'rule brute-force: at least 1 and at most 3', passed: true },
    { name: 'no other rule fires (othersMayFire: false)', passed: true },
  ]);
  assert.deepEqual(checkExpectations(e, result({ 'root-login': 3, 'brute-force': 4, whoami: 7 })), [
    {
      name: 'rule root-login: exactly 2',
      passed: false,
      message: 'expected exactly 2 match(es), found 3 (e.yml:3:3)',
    },
    {
      name: 'rule brute-force: at least 1 and at most 3',
      passed: false,
      message: 'expected at least 1 and at most 3 match(es), found 4 (e.yml:4:3)',
    },
    {
      name: 'no other rule fires (othersMayFire: false)',
      passed: false,
      message: 'rules without an expectation matched: whoami (7)',
    },
  ]);
  const open = parseExpectations('rules:\n  brute-force: { atLeast: 1 }\n', 'e.yml', ids);
  assert.deepEqual(checkExpectations(open, result({ 'brute-force': 0, whoami: 7 })), [
    {
      name: 'rule brute-force: at least 1',
      passed: false,
      message: 'expected at least 1 match(es), found 0 (e.yml:2:3)',
    },
  ]);
});
