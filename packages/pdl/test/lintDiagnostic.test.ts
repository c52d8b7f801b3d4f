import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closest, positionAt, rangeAt, sortDiagnostics } from '../src/index.ts';
import { editDistance } from '../src/lintDiagnostic.ts';

test('positions, ranges, edit distance and did-you-mean', () => {
  assert.deepEqual(positionAt('ab\ncd', 4), { line: 2, column: 2 });
  assert.deepEqual(rangeAt('ab\ncd', 1, 5), { line: 1, column: 2, endLine: 2, endColumn: 3 });
  assert.equal(editDistance('kitten', 'sitting', 5), 3);
  assert.equal(editDistance('a', 'abcdef', 2), 3);
  assert.equal(closest('Users', ['users', 'hosts']), 'users');
  assert.equal(closest('hostz', ['hosts', 'users']), 'hosts');
  assert.equal(closest('abc', ['abd', 'abe']), undefined, 'a tie is no safe fix');
  assert.equal(closest('completely', ['different']), undefined);
  const d = (line: number, column: number, severity: 'error' | 'warning') => ({
    code: 'X',
    severity,
    message: '',
    line,
    column,
  });
  assert.deepEqual(sortDiagnostics([d(2, 1, 'warning'), d(1, 5, 'warning'), d(1, 5, 'error')]), [
    d(1, 5, 'error'),
    d(1, 5, 'warning'),
    d(2, 1, 'warning'),
  ]);
});
