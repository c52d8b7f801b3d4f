import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  LookupFormatError,
  lookupFormatOf,
  parseCsvRows,
  parseJsonRows,
  parseLookupFile,
} from '../../src/resources/lookup-table.ts';

test('CSV: header names the fields; quoted cells stay text; plain unquoted numbers become numbers', () => {
  const rows = parseCsvRows('\uFEFFa,b,c,d\n1,"2",-3.5e2,007\n"x, y","say ""hi""",,0.25\n\n');
  assert.deepEqual(rows, [
    { a: 1, b: '2', c: -350, d: '007' },
    { a: 'x, y', b: 'say "hi"', c: '', d: 0.25 },
  ]);
  assert.deepEqual(parseCsvRows('only,header\n'), []);
  assert.deepEqual(parseCsvRows('a\r\n"multi\nline"\r\n'), [{ a: 'multi\nline' }]);
});

test('CSV errors say what is wrong', () => {
  assert.throws(
    () => parseCsvRows('a,b\n1,2,3\n'),
    (e: Error) => e instanceof LookupFormatError && /^it is not valid CSV: .*Invalid Record Length/.test(e.message),
  );
  assert.throws(() => parseCsvRows('a,a\n1,2\n'), {
    message: "the field name 'a' appears more than once in the header line",
  });
  assert.throws(() => parseCsvRows('a,\n1,2\n'), { message: 'field name 2 of the header line is empty' });
  assert.throws(() => parseCsvRows('__proto__\n1\n'), { message: "'__proto__' is not allowed as a field name" });
  assert.throws(() => parseCsvRows('a,"b\n1,2\n'), /^LookupFormatError: it is not valid CSV/);
});

test('JSON: an array of objects; anything else says what was found', () => {
  assert.deepEqual(parseJsonRows('[{"a":1},{"b":[2]}]'), [{ a: 1 }, { b: [2] }]);
  assert.deepEqual(parseJsonRows('[]'), []);
  for (const [text, found] of [
    ['{"a":1}', 'an object'],
    ['"x"', 'a string'],
    ['3', 'a number'],
    ['null', 'null'],
    ['true', 'true'],
  ]) {
    assert.throws(() => parseJsonRows(text!), { message: `expected a JSON array of objects, found ${found}` });
  }
  assert.throws(() => parseJsonRows('[{}, [1]]'), {
    message: 'expected a JSON array of objects, but element 1 is an array',
  });
  assert.throws(() => parseJsonRows('[{'), /^LookupFormatError: it is not valid JSON \(/);
  assert.deepEqual(parseJsonRows('[{"__proto__": {"x": 1}, "a": 1}]'), [{ a: 1 }], 'prototype keys are dropped');
});

test('format: by file name, then content type, then the first character', () => {
  assert.equal(lookupFormatOf('a,b', 'x.JSON'), 'json');
  assert.equal(lookupFormatOf('[1]', 'x.csv'), 'csv');
  assert.equal(lookupFormatOf('a', '', 'application/json; charset=utf-8'), 'json');
  assert.equal(lookupFormatOf('a', 'x', 'text/csv'), 'csv');
  assert.equal(lookupFormatOf('  [{"a":1}]', 'blob'), 'json');
  assert.equal(lookupFormatOf('a,b\n1,2', 'blob'), 'csv');
  assert.deepEqual(parseLookupFile(Buffer.from(' [{"a":1}]'), 'upload.bin', 'application/octet-stream'), [{ a: 1 }]);
  assert.throws(() => parseLookupFile(Buffer.from('  \n')), {
    message: 'the file is empty; send CSV (first line: field names) or a JSON array of objects',
  });
});

test('property: any table written as CSV (quoted text, plain integers) parses back to the same rows', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
  fc.assert(
    fc.property(
      fc.uniqueArray(name, { minLength: 1, maxLength: 5 }),
      fc.array(fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 5, maxLength: 5 }), { maxLength: 10 }),
      (names, cells) => {
        const quote = (v: string | number) => (typeof v === 'number' ? String(v) : `"${v.replaceAll('"', '""')}"`);
        const rows = cells.map((r) => r.slice(0, names.length));
        const text = [names.join(','), ...rows.map((r) => r.map(quote).join(','))].join('\n');
        assert.deepEqual(
          parseCsvRows(text),
          rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]]))),
        );
      },
    ),
  );
});
