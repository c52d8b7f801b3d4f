import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../src/index.ts';
import type { JsonObject } from '../src/index.ts';

function evalX(expr: string, event: JsonObject = {}): unknown {
  return compile(`eval x = ${expr}`, { now: () => 1_700_000_000_000 }).run(event)?.['x'];
}

const event = { a: 7, b: 2, s: 'ab', num: '10', t: true, list: [1, 2], obj: { k: 1 }, nil: null };

describe('eval arithmetic', () => {
  const rows: [string, unknown][] = [
    ['a + b', 9],
    ['a - b', 5],
    ['a * b', 14],
    ['a / b', 3.5],
    ['1 + 2 * 3', 7], // usual precedence
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3], // left associative
    ['2 * -3', -6],
    ['s + a', 'ab7'], // + concatenates when either side is a string
    ['a + s', '7ab'],
    ['s + t', 'abtrue'],
    ['num + 1', '101'], // "10" is a string: concatenation
    ['num * 2', 20], // - * / read canonical numerals
    ['num - 1', 9],
    ['a / 0', null], // division by zero
    ['s - 1', null], // non-numeric operand
    ['t + 1', null],
    ['missing + 1', null],
    ['s + missing', null],
    ['s + nil', null],
    ['list + 1', null],
    ['obj * 2', null],
    ['1e308 * 10', null], // non-finite
  ];
  for (const [expr, expected] of rows)
    test(`${expr} -> ${JSON.stringify(expected)}`, () => assert.deepEqual(evalX(expr, event), expected));
});

describe('eval literals and fields', () => {
  test('literal kinds', () => {
    assert.equal(evalX('"x\\*y"'), 'x*y');
    assert.equal(evalX('-4.5'), -4.5);
    assert.equal(evalX('false'), false);
    assert.equal(evalX('null'), null);
    assert.deepEqual(evalX('[1, "a", null]'), [1, 'a', null]);
  });
  test('a missing field is null; objects are copied, not shared', () => {
    assert.equal(evalX('missing', event), null);
    const out = compile('eval copy = obj | eval copy.k = 2').run(event);
    assert.deepEqual(out, { ...event, copy: { k: 2 } });
    assert.deepEqual(event.obj, { k: 1 });
  });
});

describe('eval assignments', () => {
  test('run left to right; a later one sees the earlier ones', () => {
    assert.deepEqual(compile('eval x = 1, y = x + 1, x = y * 10').run({}), { x: 20, y: 2 });
  });
  test('targets may be dotted paths, creating objects as needed', () => {
    assert.deepEqual(compile('eval a.b.c = 1, a.d = "x"').run({ a: { e: 0 } }), { a: { e: 0, b: { c: 1 }, d: 'x' } });
    assert.deepEqual(compile('eval s.t = 1').run({ s: 'str' }), { s: { t: 1 } }); // a non-object on the way is replaced
  });
  test('a null result sets the field to null', () => {
    assert.deepEqual(compile('eval x = a / 0').run({ a: 1 }), { a: 1, x: null });
  });
});

describe('if()', () => {
  test('yields the first value when the query holds, else the second; nests', () => {
    assert.equal(evalX('if(a > 5, "big", "small")', event), 'big');
    assert.equal(evalX('if(a > 50, "big", "small")', event), 'small');
    assert.equal(evalX('if(a > 50, "big", if(a > 5, "mid", "small"))', event), 'mid');
    assert.equal(evalX('if(s = "a*" AND NOT t = false, a * 2, 0)', event), 14);
    assert.equal(evalX('if(missing = null, "none", "some")', event), 'none');
  });
  test('sees assignments made earlier in the same eval', () => {
    assert.deepEqual(compile('eval y = 5, z = if(y = 5, "five", "other")').run({}), { y: 5, z: 'five' });
  });
});

describe('functions', () => {
  const rows: [string, unknown][] = [
    ['lower("AbC")', 'abc'],
    ['lower(a)', null],
    ['upper("AbC")', 'ABC'],
    ['upper(missing)', null],
    ['len("abcd")', 4],
    ['len(list)', 2],
    ['len(a)', null],
    ['trim("  x y  ")', 'x y'],
    ['trim(1)', null],
    ['substr("abcdef", 2)', 'cdef'],
    ['substr("abcdef", 1, 3)', 'bcd'],
    ['substr("abcdef", -2)', 'ef'],
    ['substr("abcdef", 4, 10)', 'ef'],
    ['substr("abcdef", 1, -1)', ''],
    ['substr("abc", "x")', null],
    ['substr(a, 1)', null],
    ['replace("a1b22", "\\d+", "#")', 'a#b#'],
    ['replace("Hello", "(?i)h(?<rest>e)", "J$<rest>")', 'Jello'],
    ['replace("ab", "(a)(b)", "$2$1$$")', 'ba$'],
    ['replace(a, "x", "y")', null],
    ['split("a,b,,c", ",")', ['a', 'b', '', 'c']],
    ['split(a, ",")', null],
    ['coalesce(missing, nil, "x", "y")', 'x'],
    ['coalesce(missing)', null],
    ['coalesce(a, 1)', 7],
    ['tonumber("42")', 42],
    ['tonumber(" -1.5e2 ")', -150],
    ['tonumber("0443")', 443],
    ['tonumber("abc")', null],
    ['tonumber("")', null],
    ['tonumber("0x10")', null],
    ['tonumber(t)', null],
    ['tonumber(3)', 3],
    ['tostring(42)', '42'],
    ['tostring(t)', 'true'],
    ['tostring("s")', 's'],
    ['tostring(nil)', null],
    ['tostring(list)', '[1,2]'],
    ['round(2.5)', 3],
    ['round(-2.5)', -3], // half away from zero
    ['round(2.4)', 2],
    ['round(3.14159, 2)', 3.14],
    ['round(1234, -2)', 1200],
    ['round("2.5")', 3],
    ['round(s)', null],
    ['round(-0.4)', 0],
    ['now()', 1_700_000_000_000],
  ];
  for (const [expr, expected] of rows)
    test(`${expr} -> ${JSON.stringify(expected)}`, () => assert.deepEqual(evalX(expr, event), expected));

  test('now() defaults to the wall clock', () => {
    const before = Date.now();
    const value = compile('eval x = now()').run({})?.['x'] as number;
    assert.ok(value >= before && value <= Date.now());
  });
});
