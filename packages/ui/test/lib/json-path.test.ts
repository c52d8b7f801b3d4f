import assert from 'node:assert/strict';
import { test } from 'node:test';
import { atPath, formatPath, parsePath } from '../../src/lib/json-path.ts';

test('paths written for copying read back to the same segments', () => {
  for (const path of [[], ['a', 'b'], ['items', 0, 'id'], ['odd key', 'x"y', 2], ['$ok', '_x1']]) {
    const text = formatPath(path);
    assert.deepEqual(text === '$' ? [] : parsePath(text), path, text);
  }
  assert.equal(formatPath(['user', 'roles', 1]), '$.user.roles[1]');
  assert.equal(formatPath(['a b']), '$["a b"]');
});

test('typed paths: with or without $, dots before numbers as indexes; errors say where', () => {
  assert.deepEqual(parsePath('user.roles.0'), ['user', 'roles', 0]);
  assert.deepEqual(parsePath(' $.a[3] '), ['a', 3]);
  assert.equal(parsePath('a.[x'), "the path 'a.[x' is not valid at character 2");
  assert.equal(parsePath('$'), "the path '$' names no field");
});

test('atPath finds a node, null included; misses say so', () => {
  const v = { a: [{ b: null }], '1': 'one' };
  assert.deepEqual(atPath(v, ['a', 0, 'b']), { found: true, value: null });
  assert.deepEqual(atPath(v, [1]), { found: true, value: 'one' });
  assert.deepEqual(atPath(v, ['a', 1]), { found: false });
  assert.deepEqual(atPath(v, ['a', 'x']), { found: false });
  assert.deepEqual(atPath('text', ['a']), { found: false });
});
