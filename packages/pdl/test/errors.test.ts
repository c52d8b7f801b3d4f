import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PdlCompileError,
  PdlError,
  PdlSyntaxError,
  UserRegexError,
  check,
  compile,
  compileUserRegex,
  isPdlError,
  isPdlSyntaxError,
  kPdlSyntaxError,
  parse,
  pdlErrorCodes,
} from '../src/index.ts';
import { assertSyntaxError } from './helpers.ts';

const STAGE = 'a stage (a query, or a command such as eval, fields, rename, flatten, lookup, rex, event_count)';

// [text, message, line, column]
const cases: [string, string, number, number][] = [
  ['process.name=', "line 1, column 14: expected a value after '=', found end of input", 1, 14],
  ['user = "bob" AND port =', "line 1, column 24: expected a value after '=', found end of input", 1, 24],
  [
    'user bob',
    "line 1, column 6: expected an operator (=, !=, ?=, ~=, <, >, <=, >=) or IN after 'user', found 'bob'",
    1,
    6,
  ],
  ['a=1 b=2', "line 1, column 5: expected AND, OR, '|' or end of input, found 'b'", 1, 5],
  ['x="abc', `line 1, column 3: unterminated string, expected a closing '"'`, 1, 3],
  ['a # 1', "line 1, column 3: unexpected character '#'", 1, 3],
  ['a ! 1', "line 1, column 3: unexpected character '!' (did you mean '!='?)", 1, 3],
  [
    'eval x=foo(1)',
    "line 1, column 8: unknown function 'foo'; expected one of coalesce, if, len, lower, now, replace, round, split, substr, tonumber, tostring, trim, upper",
    1,
    8,
  ],
  ['eval x=lower(a, b)', 'line 1, column 8: lower() takes 1 argument, found 2', 1, 8],
  [
    'event_count group_by user',
    'line 1, column 26: expected timespan=<n>(s|m|h|d|w) for event_count, found end of input',
    1,
    26,
  ],
  [
    'event_count timespan=5x',
    "line 1, column 22: invalid number or duration '5x': a duration is an integer followed by s, m, h, d or w (5m)",
    1,
    22,
  ],
  ['event_count timespan=0m', 'line 1, column 22: timespan must be greater than zero', 1, 22],
  ['a ~= "(a"', 'line 1, column 6: invalid regular expression: missing closing ): `(a`', 1, 6],
  [
    'a ~= "(?=x)"',
    "line 1, column 6: invalid regular expression: look-ahead '(?=' at column 1 of the regular expression: Java regex syntax that needs backtracking, which Weir does not run (regular expressions run in linear time, RE2 syntax, so that no event can stall the stream); drop it and match the text itself, or test the condition with a separate query",
    1,
    6,
  ],
  [
    'rex msg "(\\d+)"',
    'line 1, column 9: the rex regular expression has no named group; add one such as (?<name>...)',
    1,
    9,
  ],
  ['fields a, b', "line 1, column 8: expected 'keep' or 'remove' after 'fields', found 'a'", 1, 8],
  ['rename a b', "line 1, column 10: expected AS after 'a', found 'b'", 1, 10],
  ['lookup geo ip city', "line 1, column 15: expected AS or OUTPUT after the lookup field, found 'city'", 1, 15],
  ['user IN "a"', `line 1, column 9: expected an array after 'IN', found '"a"'`, 1, 9],
  ['(a=1', "line 1, column 5: expected ')' or AND/OR, found end of input", 1, 5],
  ['a=1 |', `line 1, column 6: expected ${STAGE}, found end of input`, 1, 6],
  ['', `line 1, column 1: expected ${STAGE}, found end of input`, 1, 1],
  ['a=1\n| eval x=\n| fields keep x', "line 3, column 1: expected a value after '=', found '|'", 3, 1],
  ['a.=1', "line 1, column 3: expected a field name after '.', found '='", 1, 3],
  [
    'temporal [ a=1 || a=1 ] timespan=1m',
    "line 1, column 19: two temporal queries have the key 'a = 1'; give them distinct labels with AS",
    1,
    19,
  ],
  ['event_count timespan=1m timespan=2m', "line 1, column 25: duplicate argument 'timespan' for event_count", 1, 25],
  ['a < true', "line 1, column 5: expected a number, string or field after '<', found 'true'", 1, 5],
  [
    'eval x=replace(a, b, "c")',
    'line 1, column 19: argument 2 of replace() must be a regular expression string literal',
    1,
    19,
  ],
  ['parse_csv line', 'line 1, column 15: expected header="a, b, c" for parse_csv, found end of input', 1, 15],
  ['a = [1, 2', "line 1, column 10: expected ',' or ']', found end of input", 1, 10],
  ['NOT', "line 1, column 4: expected a field name, '(' or NOT, found end of input", 1, 4],
  ['x = `abc', "line 1, column 5: unterminated field name, expected a closing '`'", 1, 5],
  [
    'event_count timespan=5m emit=sometimes',
    "line 1, column 30: expected 'event' or 'close' after 'emit=', found 'sometimes'",
    1,
    30,
  ],
  ['value_sum(a, b) timespan=1m', 'line 1, column 11: value_sum() takes exactly one field, found 2', 1, 11],
  ['eval x=1 +', "line 1, column 11: expected a value after '+', found end of input", 1, 11],
  ['a=1 || b=2', "line 1, column 5: expected AND, OR, '|' or end of input, found '||'", 1, 5],
  ['a ?= null', "line 1, column 6: expected a string, number, boolean or field after '?=', found 'null'", 1, 6],
  [
    'temporal(ordered=yes) [a=1] timespan=1m',
    "line 1, column 18: expected true or false after 'ordered=', found 'yes'",
    1,
    18,
  ],
  [
    'event_count timespan=5m user=1',
    "line 1, column 25: expected an argument (timespan, group_by, emit, reset, suppress, where), '|' or end of input, found 'user'",
    1,
    25,
  ],
];

describe('syntax errors: exact message, line and column', () => {
  for (const [text, message, line, column] of cases) {
    test(JSON.stringify(text), () => assertSyntaxError(text, message, line, column));
  }
});

describe('PdlSyntaxError', () => {
  test('is branded, carries expected/found and renders an excerpt with a caret', () => {
    try {
      parse('user = "bob" AND\n  port >');
      assert.fail('no error');
    } catch (error) {
      assert.ok(error instanceof PdlSyntaxError);
      assert.ok(isPdlSyntaxError(error));
      assert.equal(error[kPdlSyntaxError], true);
      assert.equal(error.expected, "a number, string or field after '>'");
      assert.equal(error.found, 'end of input');
      assert.equal(error.detail, "expected a number, string or field after '>', found end of input");
      assert.equal(error.excerpt, '  port >\n        ^');
    }
    assert.equal(isPdlSyntaxError(new Error('x')), false);
    assert.equal(isPdlSyntaxError({ [Symbol.for('weir.pdl.syntaxError')]: true }), true);
  });

  test('check returns the error instead of throwing', () => {
    assert.deepEqual(check('a=1'), { result: true });
    assert.deepEqual(check('process.name='), {
      result: false,
      error: { message: "line 1, column 14: expected a value after '=', found end of input", line: 1, column: 14 },
    });
  });

  test('compile reports unknown lookup ids (with a resolver) at the id', () => {
    const lookups = { get: (id: string) => (id === 'geo' ? { rows: [] } : undefined) };
    assert.doesNotThrow(() => compile('lookup geo ip OUTPUT city', { lookups }));
    assert.throws(
      () => compile('a=1 | lookup nope ip OUTPUT city', { lookups }),
      (e: unknown) =>
        isPdlSyntaxError(e) && e.message === "line 1, column 14: unknown lookup 'nope'" && e.column === 14,
    );
    assert.deepEqual(check('lookup nope ip OUTPUT city', { lookups }), {
      result: false,
      error: { message: "line 1, column 8: unknown lookup 'nope'", line: 1, column: 8 },
    });
    // Without a resolver the id cannot be checked; the event passes unchanged.
    assert.deepEqual(compile('lookup nope ip OUTPUT city').run({ ip: 1 }), { ip: 1 });
  });
});

describe('limits', () => {
  test('text length (default 64 KiB)', () => {
    assertSyntaxError(
      `a="${'x'.repeat(65_536)}"`,
      'line 1, column 1: the PDL text is 65540 characters long; the limit is 65536',
      1,
      1,
    );
    assert.throws(() => parse('a=1 AND b=2', { limits: { maxTextLength: 5 } }), /the limit is 5/);
  });

  test('nesting depth (default 64)', () => {
    assert.doesNotThrow(() => parse(`${'('.repeat(64)}a=1${')'.repeat(64)}`));
    assertSyntaxError(
      `${'('.repeat(65)}a=1${')'.repeat(65)}`,
      'line 1, column 65: nesting is deeper than the limit of 64 levels',
      1,
      65,
    );
    assertSyntaxError(
      `${'NOT '.repeat(65)}a=1`,
      'line 1, column 257: nesting is deeper than the limit of 64 levels',
      1,
      257,
    );
    assert.throws(
      () => parse('eval x=lower(lower(lower(a)))', { limits: { maxDepth: 2 } }),
      /deeper than the limit of 2/,
    );
  });

  test('token count (default 10,000)', () => {
    const text = Array.from({ length: 2600 }, (_, i) => `f${i}=1`).join(' OR ');
    assert.throws(
      () => parse(text),
      (e: unknown) => isPdlSyntaxError(e) && e.detail === 'too many tokens: the limit is 10000',
    );
    assert.doesNotThrow(() => parse(Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join(' OR ')));
  });
});

describe('error classes', () => {
  test('what compiling finds beyond the syntax is a PdlCompileError with its code', () => {
    const lookups = { get: () => undefined };
    assert.throws(
      () => compile('a=1 | lookup nope ip OUTPUT city', { lookups }),
      (e: unknown) =>
        e instanceof PdlCompileError && e.code === 'UNKNOWN_LOOKUP' && isPdlError(e) && isPdlSyntaxError(e),
    );
    assert.throws(
      () => compile('a=1 | rex msg "(?<x>a"'),
      (e: unknown) =>
        e instanceof PdlCompileError && e.code === 'INVALID_REGEX' && e.detail.startsWith('invalid regular expression'),
    );
    assert.throws(
      () => compileUserRegex('(a'),
      (e: unknown) => e instanceof UserRegexError && e.code === 'USER_REGEX' && e instanceof PdlError,
    );
  });

  test('syntax and limits are PdlSyntaxError, not PdlCompileError; every code is in the closed list', () => {
    assert.throws(
      () => parse('a ='),
      (e: unknown) => e instanceof PdlSyntaxError && !(e instanceof PdlCompileError) && e.code === 'SYNTAX',
    );
    assert.throws(
      () => parse('a=1 AND b=2', { limits: { maxTextLength: 5 } }),
      (e: unknown) => isPdlSyntaxError(e) && e.code === 'LIMIT',
    );
    assert.deepEqual([...pdlErrorCodes], ['SYNTAX', 'LIMIT', 'UNKNOWN_LOOKUP', 'INVALID_REGEX', 'USER_REGEX']);
  });
});
