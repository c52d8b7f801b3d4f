import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode({}, async () => {
  const stored: [string, unknown][] = [
    [
      '/api/rules',
      {
        id: 'root',
        name: 'Root',
        description: '',
        pdl: 'user="root" | eval risk="high"',
        annotations: [],
        enabled: true,
      },
    ],
    ['/api/tasks', { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} }],
    [
      '/api/tasks',
      { id: 2, name: 'time', description: '', function: 'TIMESTAMP', definition: { field: 'ts', format: 'epoch' } },
    ],
    ['/api/tasks', { id: 6, name: 'cef', description: '', function: 'PARSE_CEF', definition: {} }],
    ['/api/pipelines', { id: 1, name: 'parse-and-time', description: '', tasks: [1, 2] }],
    ['/api/pipelines', { id: 4, name: 'cef', description: '', tasks: [6] }],
  ];
  for (const [url, body] of stored) {
    const res = await t.node.call('POST', url, { token: t.tokens.admin, body });
    assert.equal(res.status, 201, res.text);
  }
});

/** POSTs text/plain, as the spec's clients do. */
const postText = (url: string, body: string) =>
  t.node.call('POST', url, { token: t.tokens.user, body, contentType: 'text/plain' });

test('test routes refuse callers without a token (a user may call them)', async () => {
  for (const url of [
    '/api/test/rules/root',
    '/api/test/tasks/1',
    '/api/test/pipelines/1',
    '/api/test/pdl',
    '/api/test/pdl/syntax',
  ])
    await assertRefusals(t.node, t.tokens.user, 'POST', url, { adminOnly: false, body: {} });
});

test('POST /api/test/tasks/:id: the event after the task; a missing task: 404', async () => {
  const res = await postText('/api/test/tasks/2', '{"ts":1700000000}');
  assert.deepEqual([res.status, res.body], [200, { result: { ts: 1700000000, _time: 1_700_000_000_000 } }]);
  const missing = await postText('/api/test/tasks/42', '{}');
  assert.deepEqual([missing.status, missing.body], [404, notFound('Requested task does not exist')]);
});

test('POST /api/test/pipelines/:id: the event after every task; a failing task: 400 naming it; missing: 404', async () => {
  const res = await postText('/api/test/pipelines/1', 'user=bob ts=1700000000');
  assert.deepEqual(
    [res.status, res.body],
    [200, { result: { user: 'bob', ts: 1700000000, _raw: 'user=bob ts=1700000000', _time: 1_700_000_000_000 } }],
  );
  const failing = await postText('/api/test/pipelines/4', 'plain');
  assert.deepEqual(
    [failing.status, failing.body],
    [400, badRequest('Task cef failed on this input: not a CEF record: "CEF:" not found')],
  );
  const missing = await postText('/api/test/pipelines/42', 'user=a');
  assert.deepEqual([missing.status, missing.body], [404, notFound('Requested pipeline does not exist')]);
});

test('POST /api/test/rules/:id: the rule output or null; a missing rule: 404', async () => {
  const hit = await postText('/api/test/rules/root', '{"user":"root"}');
  assert.deepEqual([hit.status, hit.body], [200, { result: { user: 'root', risk: 'high' } }]);
  const miss = await postText('/api/test/rules/root', '{"user":"bob"}');
  assert.deepEqual([miss.status, miss.body], [200, { result: null }]);
  const missing = await postText('/api/test/rules/nope', '{}');
  assert.deepEqual([missing.status, missing.body], [404, notFound('Requested rule does not exist')]);
});

test('POST /api/test/pdl: the output; invalid PDL: 400 naming line and column', async () => {
  const res = await postText(
    '/api/test/pdl',
    JSON.stringify({ pdl: 'port=443 | eval who=upper(user)', data: '{"user":"bob","port":443}' }),
  );
  assert.deepEqual([res.status, res.body], [200, { result: { user: 'bob', port: 443, who: 'BOB' } }]);
  const bad = await postText('/api/test/pdl', JSON.stringify({ pdl: 'a = ', data: '{}' }));
  assert.deepEqual(
    [bad.status, bad.body],
    [400, badRequest("The PDL does not compile: line 1, column 5: expected a value after '=', found end of input")],
  );
});

test('POST /api/test/pdl/syntax: {result: true}, or {result: false, error: {message, line, column}}', async () => {
  const ok = await postText('/api/test/pdl/syntax', JSON.stringify({ pdl: 'user="root" | eval risk=1' }));
  assert.deepEqual([ok.status, ok.body], [200, { result: true }]);
  const bad = await postText('/api/test/pdl/syntax', JSON.stringify({ pdl: 'a = ' }));
  assert.deepEqual(
    [bad.status, bad.body],
    [
      200,
      {
        result: false,
        error: { message: "line 1, column 5: expected a value after '=', found end of input", line: 1, column: 5 },
      },
    ],
  );
});
