import assert from 'node:assert/strict';
import { test } from 'node:test';
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
