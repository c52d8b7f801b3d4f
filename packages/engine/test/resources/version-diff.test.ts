import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffLines, diffRecords } from '../../src/resources/version-diff.ts';

test('equal records have no changes, whatever the order of their fields', () => {
  assert.deepEqual(diffRecords({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }), []);
});

test('changed, removed and added fields by path; nested objects and arrays member by member', () => {
  const before = { id: 1, name: 'a', output: [{ name: 'x' }, { name: 'y' }], options: { k: 1 }, gone: true };
  const after = { id: 1, name: 'b', output: [{ name: 'z' }], options: { k: 1, 'odd key': 2 }, added: [1] };
  assert.deepEqual(diffRecords(before, after), [
    { path: 'name', before: 'a', after: 'b' },
    { path: 'output[0].name', before: 'x', after: 'z' },
    { path: 'output[1]', before: { name: 'y' } },
    { path: 'options."odd key"', after: 2 },
    { path: 'gone', before: true },
    { path: 'added', after: [1] },
  ]);
});

test('a type change is one change at its path; a side that is no object is the whole record', () => {
  assert.deepEqual(diffRecords({ a: [1] }, { a: { 0: 1 } }), [{ path: 'a', before: [1], after: { 0: 1 } }]);
  assert.deepEqual(diffRecords({ a: 1 }, null), [{ path: '(record)', before: { a: 1 }, after: null }]);
  assert.deepEqual(diffRecords({ a: null }, { a: 0 }), [{ path: 'a', before: null, after: 0 }]);
});

test('a line diff keeps the common lines and shows the rest removed then added, in order', () => {
  assert.deepEqual(diffLines('a\nb\nc\nd', 'a\nx\nc\nd\ne'), [
    { op: ' ', text: 'a' },
    { op: '-', text: 'b' },
    { op: '+', text: 'x' },
    { op: ' ', text: 'c' },
    { op: ' ', text: 'd' },
    { op: '+', text: 'e' },
  ]);
  assert.deepEqual(diffLines('same', 'same'), [{ op: ' ', text: 'same' }]);
  assert.deepEqual(diffLines('', 'x\ny'), [
    { op: '+', text: 'x' },
    { op: '+', text: 'y' },
  ]);
  assert.deepEqual(diffLines('x', ''), [{ op: '-', text: 'x' }]);
});

test('a line diff finds the longest common subsequence (a moved line is removed and added once)', () => {
  const ops = diffLines('1\n2\n3\n4\n5', '2\n3\n4\n5\n1');
  assert.deepEqual(ops, [
    { op: '-', text: '1' },
    { op: ' ', text: '2' },
    { op: ' ', text: '3' },
    { op: ' ', text: '4' },
    { op: ' ', text: '5' },
    { op: '+', text: '1' },
  ]);
});

test('texts too large for the table still diff correctly: the middle removed, then added', () => {
  const many = (p: string) => Array.from({ length: 2100 }, (_, i) => `${p}${i}`).join('\n');
  const ops = diffLines(`head\n${many('a')}\ntail`, `head\n${many('b')}\ntail`);
  assert.equal(ops.length, 2 + 4200);
  assert.deepEqual(ops[0], { op: ' ', text: 'head' });
  assert.deepEqual(ops[1], { op: '-', text: 'a0' });
  assert.deepEqual(ops[2101], { op: '+', text: 'b0' });
  assert.deepEqual(ops.at(-1), { op: ' ', text: 'tail' });
});
