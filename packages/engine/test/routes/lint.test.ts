import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';
import { multipartBody } from '@weir/test-helpers/multipart';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode({}, async () => {
  const token = t.tokens.admin;
  const stored = async (path: string, body: unknown) => {
    const r = await t.node.call('POST', path, { token, body });
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  };
  await stored('/api/rules', { id: 'failed-logon', name: 'Failed logon', pdl: 'action="failed"' });
  const { body, contentType } = multipartBody([
    { name: 'id', value: 'users' },
    { name: 'file', value: 'user,dept\nbob,it\n', filename: 'users.csv', contentType: 'text/csv' },
  ]);
  const lookup = await t.node.call('POST', '/api/lookups', { token, body, contentType });
  assert.equal(lookup.status, 201, lookup.text);
});

test('POST /api/lint/* refuses callers without a valid token; users may lint', async () => {
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/lint/pdl', { adminOnly: false });
  const asUser = await t.node.call('POST', '/api/lint/pdl', { token: t.tokens.user, body: { pdl: 'a = 1' } });
  assert.deepEqual(asUser.body, { errors: 0, warnings: 0, infos: 0, diagnostics: [] });
});

test('POST /api/lint/pdl: stored lookups, sample events, positions and fixes', async () => {
  const r = await t.node.call('POST', '/api/lint/pdl', {
    token: t.tokens.user,
    body: { pdl: 'usr = "bob" | lookup user user OUTPUT dept', events: [{ user: 'bob' }] },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    errors: 1,
    warnings: 1,
    infos: 0,
    diagnostics: [
      {
        code: 'PDL_FIELD_NOT_SEEN',
        severity: 'warning',
        message: 'field `usr` is in none of the 1 sample event(s) of the given events (did you mean `user`?)',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 4,
        fix: {
          title: 'Use field `user`',
          edits: [{ range: { line: 1, column: 1, endLine: 1, endColumn: 4 }, text: 'user' }],
        },
      },
      {
        code: 'PDL_UNKNOWN_LOOKUP',
        severity: 'error',
        message: 'lookup `user` does not exist (did you mean `users`?)',
        line: 1,
        column: 22,
        endLine: 1,
        endColumn: 26,
        fix: {
          title: 'Use lookup `users`',
          edits: [{ range: { line: 1, column: 22, endLine: 1, endColumn: 26 }, text: 'users' }],
        },
      },
    ],
  });
  const bad = await t.node.call('POST', '/api/lint/pdl', { token: t.tokens.user, body: { text: 'a = 1' } });
  assert.equal(bad.status, 400, bad.text);
});

test('POST /api/lint/task: an APPLY_RULES rule id that does not exist, with did-you-mean', async () => {
  const r = await t.node.call('POST', '/api/lint/task', {
    token: t.tokens.user,
    body: { function: 'APPLY_RULES', definition: { rules: ['failed-logon', 'failed-logn'] } },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    errors: 0,
    warnings: 1,
    infos: 0,
    diagnostics: [
      {
        code: 'RULE_UNKNOWN',
        severity: 'warning',
        message:
          'rule `failed-logn` does not exist: the task skips it and it never fires (did you mean `failed-logon`?)',
        line: 0,
        column: 0,
        path: 'definition.rules[1]',
      },
    ],
  });
});

test('POST /api/lint/sigma: YAML or JSON bodies, per document', async () => {
  const yaml = 'title: t\nlogsource: {}\ndetection:\n  sel: {Image|endwith: x}\n  condition: sel\n---\ntitle: u\n';
  const asYaml = await t.node.call('POST', '/api/lint/sigma', {
    token: t.tokens.user,
    body: yaml,
    contentType: 'application/yaml',
  });
  assert.equal(asYaml.status, 200, asYaml.text);
  const brief = (body: unknown) =>
    (body as { diagnostics: { document: number; line: number; code: string; path: string }[] }).diagnostics.map(
      (d) => `${d.document} ${d.line} ${d.code} ${d.path}`,
    );
  assert.deepEqual(brief(asYaml.body), [
    '0 4 SIGMA_UNKNOWN_MODIFIER detection.sel.Image|endwith',
    '1 7 SIGMA_MISSING_FIELD ',
  ]);
  const asJson = await t.node.call('POST', '/api/lint/sigma', { token: t.tokens.user, body: { yaml } });
  assert.deepEqual(asJson.body, asYaml.body);
  const none = await t.node.call('POST', '/api/lint/sigma', { token: t.tokens.user, body: { text: yaml } });
  assert.equal(none.status, 400);
});

test('POST /api/lint/pdl with topic: an unknown topic is 404 TOPIC_MISSING naming it; sample is bounded and needs topic', async () => {
  const lint = (body: unknown) => t.node.call('POST', '/api/lint/pdl', { token: t.tokens.user, body });
  const unknown = await lint({ pdl: 'user = "bob"', topic: 'no-such-topic' });
  assert.deepEqual(
    [unknown.status, unknown.body],
    [404, { ...notFound('Requested topic does not exist'), errors: ["topic: topic 'no-such-topic' does not exist"] }],
  );
  const refusals: [unknown, string][] = [
    [
      { pdl: 'a = 1', topic: 'logs', events: [{ a: 1 }] },
      'give at most one of events and topic (the sample events, or where to read them).',
    ],
    [{ pdl: 'a = 1', sample: 10 }, 'sample is how many records of topic are read: give topic with it.'],
    [
      { pdl: 'a = 1', topic: 'logs', sample: 0 },
      'sample must be an integer from 1 to 1000 (records read from the topic), found 0.',
    ],
    [
      { pdl: 'a = 1', topic: 'logs', sample: 1001 },
      'sample must be an integer from 1 to 1000 (records read from the topic), found 1001.',
    ],
    [
      { pdl: 'a = 1', topic: 'logs', sample: '5' },
      'sample must be an integer from 1 to 1000 (records read from the topic), found "5".',
    ],
    [{ pdl: 'a = 1', topic: '' }, 'topic must be the name of the topic whose recent events are the sample.'],
  ];
  for (const [body, message] of refusals) {
    const r = await lint(body);
    assert.deepEqual([r.status, r.body], [400, badRequest(message)], JSON.stringify(body));
  }
});
