import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lintPdl } from '../src/index.ts';

const codes = (text: string, options = {}) =>
  lintPdl(text, options).map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);

describe('lintPdl', () => {
  test('a syntax error is the only diagnostic, at its position', () => {
    assert.deepEqual(lintPdl('x = 1 AND\n  y = '), [
      {
        code: 'PDL_SYNTAX',
        severity: 'error',
        message: "expected a value after '=', found end of input",
        line: 2,
        column: 7,
        endLine: 2,
        endColumn: 7,
      },
    ]);
  });

  test('an invalid regular expression is PDL_REGEX_INVALID; one that cannot match a warning', () => {
    assert.deepEqual(codes('x ~= "(a"'), ['1:6 error PDL_REGEX_INVALID']);
    assert.deepEqual(codes('x ~= "ab$c" | rex y "a^(?<n>b)"'), [
      '1:6 warning PDL_REGEX_NEVER_MATCHES',
      '1:15 warning PDL_REGEX_NEVER_MATCHES',
    ]);
    assert.deepEqual(codes('x ~= "a$|b" | x ~= "(?m)a$\\nb" | x ~= "^a$" | x ~= "a$b?"'), []);
  });

  test('always-true and never-true conditions', () => {
    assert.deepEqual(codes('a = 1 AND a != 1'), ['1:1 warning PDL_NEVER_TRUE']);
    assert.deepEqual(codes('x = "*" OR NOT x = "*"'), ['1:1 warning PDL_ALWAYS_TRUE']);
    assert.deepEqual(codes('b = 2 AND (x = 1 AND x = 2)'), ['1:12 warning PDL_NEVER_TRUE']);
    assert.deepEqual(codes('x > 5 AND x <= 3 | y >= 2 AND y <= 2 | z > 2 AND z < 2'), [
      '1:1 warning PDL_NEVER_TRUE',
      '1:40 warning PDL_NEVER_TRUE',
    ]);
    // wildcards, case-insensitive strings, different types and ORs of values are satisfiable
    assert.deepEqual(codes('x = "a*" AND x = "ab" | x = i"A" AND x = "a" | x = 1 AND x = "1" | x = 1 OR x = 2'), []);
    const [d] = lintPdl('x = 1 AND x = 2');
    assert.match(d?.message ?? '', /only a field holding an array/);
  });

  test('a lookup that does not exist, with a fix when one id is close', () => {
    const [d] = lintPdl('lookup userz user OUTPUT dept', { lookups: ['users', 'hosts'] });
    assert.deepEqual(d, {
      code: 'PDL_UNKNOWN_LOOKUP',
      severity: 'error',
      message: 'lookup `userz` does not exist (did you mean `users`?)',
      line: 1,
      column: 8,
      endLine: 1,
      endColumn: 13,
      fix: {
        title: 'Use lookup `users`',
        edits: [{ range: { line: 1, column: 8, endLine: 1, endColumn: 13 }, text: 'users' }],
      },
    });
    assert.deepEqual(codes('lookup other user OUTPUT dept', { lookups: ['users'] }), ['1:8 error PDL_UNKNOWN_LOOKUP']);
    assert.equal(lintPdl('lookup other user OUTPUT dept', { lookups: ['users'] })[0]?.fix, undefined);
    // without the known lookups, lookups are not checked
    assert.deepEqual(codes('lookup other user OUTPUT dept'), []);
  });

  test('fields none of the sample events holds, only when samples are given', () => {
    const sampleEvents = [{ proc: { Image: 'a.exe', Parent: 'b' }, user: 'x' }, 'not an object'];
    const text =
      'proc.Imge = "a" | eval k = lower(user) | k = "x" AND proc = "*" | rex user "(?<dom>\\w+)" | dom = "d" | nope = 1';
    assert.deepEqual(
      lintPdl(text, { sampleEvents, sampleSource: 'topic winlog' }).map((d) => [
        d.column,
        d.message,
        d.fix?.edits[0]?.text,
      ]),
      [
        [
          1,
          'field `proc.Imge` is in none of the 1 sample event(s) of topic winlog (did you mean `proc.Image`?)',
          'proc.Image',
        ],
        [104, 'field `nope` is in none of the 1 sample event(s) of topic winlog', undefined],
      ],
    );
    assert.deepEqual(codes('nope = 1'), []);
    assert.deepEqual(codes('nope = 1', { sampleEvents: [] }), []);
    // after flatten or parse_kv the fields come from the data: not checked
    assert.deepEqual(codes('flatten | nope = 1', { sampleEvents }), []);
  });
});
