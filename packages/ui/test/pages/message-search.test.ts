import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsumedMessage } from '@weir/contract';
import { exported, headerSearch, jsonPathSearch } from '../../src/pages/message-search.ts';

const msg = (value: unknown, headers?: Record<string, string>): ConsumedMessage => ({
  key: null,
  value,
  partition: 0,
  offset: 0,
  timestamp: 0,
  ...(headers ? { headers } : {}),
});
const messages = [
  msg('{"user":{"name":"Alice","roles":["admin","ops"]},"n":7}', { source: 'web', 'trace-id': 'abc' }),
  msg({ user: { name: 'bob' }, n: 8 }, { Source: 'cli' }),
  msg('user=carol'),
  msg('[{"id":1},{"id":2}]'),
];
const kept = (s: ReturnType<typeof jsonPathSearch>) => {
  assert.ok(s.ok && s.test, JSON.stringify(s));
  const test = s.test;
  return messages.flatMap((m, i) => (test(m) ? [i] : []));
};

test('JSON path: the field is there, equals a text or contains it (any case); text values are parsed', () => {
  assert.deepEqual(kept(jsonPathSearch('$.user.name')), [0, 1]);
  assert.deepEqual(kept(jsonPathSearch('user.name = alice')), [0]);
  assert.deepEqual(kept(jsonPathSearch('$.user.roles[1]=OPS')), [0]);
  assert.deepEqual(kept(jsonPathSearch('user.roles.0')), [0]);
  assert.deepEqual(kept(jsonPathSearch('$.n=8')), [1]);
  assert.deepEqual(kept(jsonPathSearch('$.user~O')), [0, 1], 'an object compares as its JSON text');
  assert.deepEqual(kept(jsonPathSearch('$[1].id=2')), [3]);
  assert.deepEqual(kept(jsonPathSearch('$["user"].name~b')), [1]);
  assert.deepEqual(jsonPathSearch('  '), { ok: true, test: undefined });
  assert.deepEqual(jsonPathSearch('$.user..name'), {
    ok: false,
    message: "the path '$.user..name' is not valid at character 7",
  });
  assert.deepEqual(jsonPathSearch('$ = 1'), { ok: false, message: "the path '$' names no field" });
});

test('header: the name in any case, its value equal to or containing a text', () => {
  assert.deepEqual(kept(headerSearch('source')), [0, 1]);
  assert.deepEqual(kept(headerSearch('SOURCE=cli')), [1]);
  assert.deepEqual(kept(headerSearch('trace-id ~ B')), [0]);
  assert.deepEqual(kept(headerSearch('source=mobile')), []);
  assert.deepEqual(headerSearch('=x'), { ok: false, message: "'=x' names no header (e.g. source=web)" });
});

test('exports hold JSON text keys and values as parsed JSON, other values as they are', () => {
  assert.deepEqual(exported({ ...messages[0]!, key: '{"k":1}' }), {
    ...messages[0]!,
    key: { k: 1 },
    value: { user: { name: 'Alice', roles: ['admin', 'ops'] }, n: 7 },
  });
  assert.deepEqual(exported(messages[2]!), messages[2]);
  assert.deepEqual(exported(msg('{broken')), msg('{broken'));
  assert.deepEqual(exported(msg('42')), msg('42'), 'a number in text stays text');
});
