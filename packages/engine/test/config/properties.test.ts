import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProperties } from '../../src/config/properties.ts';

test('parses key=value, key: value and key value, skipping comments and blank lines', () => {
  const entries = parseProperties('# comment\n! also\n\na=1\nb: two\nc three\n  d = spaced value  \n');
  assert.deepEqual(entries, [
    { key: 'a', value: '1', line: 4 },
    { key: 'b', value: 'two', line: 5 },
    { key: 'c', value: 'three', line: 6 },
    { key: 'd', value: 'spaced value', line: 7 },
  ]);
});

test('joins continuation lines and decodes escapes', () => {
  const entries = parseProperties('list=a,\\\n    b,\\\n    c\nkey\\:x=tab\\there\\u0041\n');
  assert.deepEqual(entries, [
    { key: 'list', value: 'a,b,c', line: 1 },
    { key: 'key:x', value: 'tab\thereA', line: 4 },
  ]);
});

test('a key without a value has the empty value', () => {
  assert.deepEqual(parseProperties('empty=\nalone\n'), [
    { key: 'empty', value: '', line: 1 },
    { key: 'alone', value: '', line: 2 },
  ]);
});

test(
  'a value continued over 200,000 lines is read in linear time (the fuzz suite found a quadratic join)',
  { timeout: 30_000 },
  () => {
    const entries = parseProperties(`${'a=b\\\n'.repeat(200_000)}c\n`);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.value, `${'a=b'.repeat(200_000).slice(2)}c`);
  },
);

test('an even number of trailing backslashes does not continue the line; an odd number does', () => {
  assert.deepEqual(parseProperties('a=x\\\\\nb=y\\\\\\\n  z\n'), [
    { key: 'a', value: 'x\\', line: 1 },
    { key: 'b', value: 'y\\z', line: 2 },
  ]);
});
