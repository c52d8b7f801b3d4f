import assert from 'node:assert/strict';
import { test } from 'node:test';
import { T0, errorOf, makeTask, run, single, value, violations } from './task-harness.ts';

test('defaults: = delimiter, pairs by whitespace or commas, _raw kept last, numerals become numbers', () => {
  const task = makeTask('PARSE_KV', {});
  const text = 'user=bob, action="log in" port=443 ratio=0.5 id=007';
  assert.deepEqual(single(run(task, text)), {
    value: { user: 'bob', action: 'log in', port: 443, ratio: 0.5, id: '007', _raw: text },
    timestamp: T0,
  });
  assert.deepEqual(Object.keys(value(run(task, text)) as object), ['user', 'action', 'port', 'ratio', 'id', '_raw']);
});

test('quoted values keep separators and decode \\" and \\\\; blanks around the delimiter', () => {
  const task = makeTask('PARSE_KV', { keepRaw: false });
  assert.deepEqual(value(run(task, 'msg="a, b c" q="say \\"hi\\"" p="C:\\\\x" k = v')), {
    msg: 'a, b c',
    q: 'say "hi"',
    p: 'C:\\x',
    k: 'v',
  });
});

test('delimiter, its alias delimeter, keepRaw=false, rawFieldName', () => {
  assert.deepEqual(value(run(makeTask('PARSE_KV', { delimiter: ':' }), 'a:1 b:x')), { a: 1, b: 'x', _raw: 'a:1 b:x' });
  assert.deepEqual(value(run(makeTask('PARSE_KV', { delimeter: '=>' }), 'a=>1')), { a: 1, _raw: 'a=>1' });
  assert.deepEqual(value(run(makeTask('PARSE_KV', { keepRaw: false }), 'a=1')), { a: 1 });
  assert.deepEqual(value(run(makeTask('PARSE_KV', { rawFieldName: 'message' }), 'a=1')), { a: 1, message: 'a=1' });
});

test('a parsed key named like the raw field loses to the original text; words without a delimiter are skipped', () => {
  assert.deepEqual(value(run(makeTask('PARSE_KV', {}), '_raw=x a=1 junk')), { a: 1, _raw: '_raw=x a=1 junk' });
  assert.deepEqual(value(run(makeTask('PARSE_KV', {}), '')), { _raw: '' });
});

test('an event: its raw field is parsed into it; without one it is a task error', () => {
  const task = makeTask('PARSE_KV', {});
  assert.deepEqual(value(run(task, { host: 'h1', _raw: 'a=1' })), { host: 'h1', a: 1, _raw: 'a=1' });
  assert.deepEqual(value(run(makeTask('PARSE_KV', { keepRaw: false }), { _raw: 'a=1' })), { a: 1 });
  assert.equal(
    errorOf(run(task, { host: 'h1' })),
    'PARSE_KV needs text: the record is an event without a text field "_raw"',
  );
});

test('definition: unknown keys, empty delimiter, both spellings', () => {
  assert.deepEqual(violations('PARSE_KV', { separator: ' ' }), [
    'definition.separator: is not an accepted field; accepted: delimiter, keepRaw, rawFieldName',
  ]);
  assert.deepEqual(violations('PARSE_KV', { delimiter: '' }), [
    'definition.delimiter: must NOT have fewer than 1 characters',
  ]);
  assert.deepEqual(violations('PARSE_KV', { keepRaw: 'yes' }), ['definition.keepRaw: must be boolean']);
});
