import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lex } from '../src/lexer.ts';
import { TokenKind } from '../src/tokenKind.ts';

const kinds = (text: string) => lex(text, 10_000).map((t) => t.kind);

describe('lexer', () => {
  test('operators and punctuation', () => {
    assert.deepEqual(kinds('= != ?= ~= < > <= >= | || ( ) [ ] , + - * /'), [
      '=',
      '!=',
      '?=',
      '~=',
      '<',
      '>',
      '<=',
      '>=',
      '|',
      '||',
      '(',
      ')',
      '[',
      ']',
      ',',
      '+',
      '-',
      '*',
      '/',
      TokenKind.EOF,
    ]);
  });

  test('field paths are one Name token with segments; - and : continue a name', () => {
    const [token] = lex('winlog.event_data.Image-x:y', 100);
    assert.equal(token?.kind, TokenKind.Name);
    assert.deepEqual(token?.segments, ['winlog', 'event_data', 'Image-x:y']);
    assert.equal(token?.bare, false);
    assert.equal(lex('AND', 10)[0]?.bare, true);
  });

  test('backquoted segments allow any character and are never keywords', () => {
    const [token] = lex('`odd field`.`a.b`.c', 100);
    assert.deepEqual(token?.segments, ['odd field', 'a.b', 'c']);
    const [kw] = lex('`AND`', 10);
    assert.equal(kw?.bare, false);
    assert.deepEqual(lex('`a\\`b`', 10)[0]?.segments, ['a`b']);
  });

  test('string escapes: \\" \\\\ \\* and other sequences kept as written', () => {
    const [s] = lex('"a\\"b\\\\c\\*d*\\d+"', 10);
    assert.equal(s?.value, 'a"b\\c*d*\\d+');
    assert.deepEqual(s?.literalStars, [5]);
  });

  test('backslash-quoted strings (the original rule files): \\"evil*\\" is the string "evil*"', () => {
    const tokens = lex('group_name=\\"evil*\\" AND x=\\"say "hi" \\\\ \\*\\"', 100);
    assert.deepEqual(
      tokens.map((t) => t.kind),
      [
        TokenKind.Name,
        TokenKind.Eq,
        TokenKind.String,
        TokenKind.Name,
        TokenKind.Name,
        TokenKind.Eq,
        TokenKind.String,
        TokenKind.EOF,
      ],
    );
    assert.equal(tokens[2]?.value, 'evil*');
    assert.deepEqual(tokens[2]?.literalStars, []);
    assert.equal(tokens[6]?.value, 'say "hi" \\ *');
    assert.deepEqual(tokens[6]?.literalStars, [11]);
    assert.throws(() => lex('a=\\"open', 10), /line 1, column 3: unterminated string, expected a closing '\\"'/);
    assert.throws(() => lex('a=\\x', 10), /unexpected character '\\'/);
  });

  test('no-break spaces are whitespace; other unusual characters are named by code point; a doubled quote is named', () => {
    assert.deepEqual(kinds('|\u00a0fields'), [TokenKind.Pipe, TokenKind.Name, TokenKind.EOF]);
    assert.throws(() => lex('a\u2003= 1', 10), { message: "line 1, column 2: unexpected character '\u2003' (U+2003)" });
    assert.throws(() => lex('p="x /y"" OR q=1', 10), {
      message:
        'line 1, column 9: a quote right after the string "x /y" closed it; write \\" for a quote inside a string',
    });
  });

  test('Windows path: "C:\\\\Windows\\\\*\\\\at.exe"', () => {
    const [s] = lex('"C:\\\\Windows\\\\*\\\\at.exe"', 10);
    assert.equal(s?.value, 'C:\\Windows\\*\\at.exe');
    assert.deepEqual(s?.literalStars, []);
  });

  test('numbers: integers, decimals, exponents; minus is a separate token', () => {
    const tokens = lex('443 1.5 2e3 -7', 10);
    assert.deepEqual(
      tokens.map((t) => t.number),
      [443, 1.5, 2000, undefined, 7, undefined],
    );
    assert.equal(tokens[3]?.kind, TokenKind.Minus);
  });

  test('durations: integer and unit letter', () => {
    const [d] = lex('15m', 10);
    assert.equal(d?.kind, TokenKind.Duration);
    assert.equal(d?.number, 15);
    assert.equal(d?.unit, 'm');
  });

  test('newlines and tabs are whitespace; positions are 1-based line and column', () => {
    const tokens = lex('a=1\n\t| b', 10);
    const b = tokens[4];
    assert.equal(b?.text, 'b');
    assert.equal(b?.line, 2);
    assert.equal(b?.column, 4);
    assert.equal(b?.start, 7);
  });
});
