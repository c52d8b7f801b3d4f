import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { notFound, schemaError } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();

const secret = 'a-secret-of-16-chars';
const hook = {
  id: 'soc',
  name: 'SOC webhook',
  url: 'https://hooks.example.com/weir',
  secret,
  matcher: { minSeverity: 'high', techniques: ['T1110'] },
  rateLimitPerMinute: 30,
  enabled: true,
};
const { secret: _secret, ...hookShown0 } = hook;
const hookShown = { ...hookShown0, secretSet: true };

/** Audit entries of kind notifier, newest first, without their volatile fields. */
async function auditEntries(): Promise<Record<string, unknown>[]> {
  const res = await t.node.call('GET', '/api/audit?kind=notifier', { token: t.tokens.admin });
  assert.equal(res.status, 200);
  return (res.body as { entries: Record<string, unknown>[] }).entries.map(
    ({ time: _t, seq: _s, address: _a, ...rest }) => rest,
  );
}

/** The stored notifier, secret included (what the delivery reads). */
const storedSecret = (id: string) => t.node.context.store.get<{ secret: string }>('notifiers', id)?.secret;

test('every notifier route is admin only: no token 401, a user 403, reads included', async () => {
  const { user } = t.tokens;
  await assertRefusals(t.node, user, 'GET', '/api/notifiers', { adminOnly: true });
  await assertRefusals(t.node, user, 'POST', '/api/notifiers', { adminOnly: true, body: hook });
  await assertRefusals(t.node, user, 'GET', '/api/notifiers/soc', { adminOnly: true });
  await assertRefusals(t.node, user, 'PUT', '/api/notifiers/soc', { adminOnly: true, body: hook });
  await assertRefusals(t.node, user, 'DELETE', '/api/notifiers/soc', { adminOnly: true });
  assert.deepEqual(await auditEntries(), []);
});

test('create, read, list, update, delete: the secret is never answered, nor audited', async () => {
  const { admin } = t.tokens;
  const created = await t.node.call('POST', '/api/notifiers', { token: admin, body: hook });
  assert.deepEqual([created.status, created.headers.location, created.body], [201, '/api/notifiers/soc', hookShown]);
  assert.ok(!created.text.includes(secret));

  const minimal = { id: 'all', name: 'Everything', url: 'https://127.0.0.1:9443/hook', secret: 's'.repeat(16) };
  const second = await t.node.call('POST', '/api/notifiers', { token: admin, body: minimal });
  const { secret: _s, ...minimalShown } = minimal;
  const allShown = { ...minimalShown, matcher: {}, rateLimitPerMinute: 60, enabled: true, secretSet: true };
  assert.deepEqual([second.status, second.body], [201, allShown]);

  const again = await t.node.call('POST', '/api/notifiers', { token: admin, body: hook });
  assert.deepEqual(
    [again.status, again.body],
    [
      409,
      {
        status: 'CONFLICT',
        message: 'Resource already exists',
        debugMessage: 'Notifier already exists, can not create a new one. Please use update (PUT) endpoint.',
      },
    ],
  );

  const list = await t.node.call('GET', '/api/notifiers', { token: admin });
  assert.deepEqual([list.status, list.body], [200, [hookShown, allShown]]);
  assert.ok(!list.text.includes(secret));
  const one = await t.node.call('GET', '/api/notifiers/soc', { token: admin });
  assert.deepEqual([one.status, one.body], [200, hookShown]);

  // A PUT without a secret keeps the stored one; with one, replaces it.
  const { id: _id, secret: _x, ...change } = { ...hook, name: 'SOC', enabled: false };
  const kept = await t.node.call('PUT', '/api/notifiers/soc', { token: admin, body: change });
  const changedShown = { ...hookShown, name: 'SOC', enabled: false };
  assert.deepEqual([kept.status, kept.body], [200, changedShown]);
  assert.equal(storedSecret('soc'), secret);
  const newSecret = 'another-secret-16+';
  const replaced = await t.node.call('PUT', '/api/notifiers/soc', {
    token: admin,
    body: { ...change, secret: newSecret },
  });
  assert.deepEqual([replaced.status, replaced.body], [200, changedShown]);
  assert.equal(storedSecret('soc'), newSecret);

  const deleted = await t.node.call('DELETE', '/api/notifiers/all', { token: admin });
  assert.deepEqual([deleted.status, deleted.text], [204, '']);
  const gone = await t.node.call('GET', '/api/notifiers/all', { token: admin });
  assert.deepEqual([gone.status, gone.body], [404, notFound('Requested notifier does not exist')]);

  const audit = await auditEntries();
  assert.deepEqual(audit, [
    { user: 'admin', kind: 'notifier', action: 'delete', id: 'all', before: allShown, after: null },
    { user: 'admin', kind: 'notifier', action: 'update', id: 'soc', before: changedShown, after: changedShown },
    { user: 'admin', kind: 'notifier', action: 'update', id: 'soc', before: hookShown, after: changedShown },
    { user: 'admin', kind: 'notifier', action: 'create', id: 'all', before: null, after: allShown },
    { user: 'admin', kind: 'notifier', action: 'create', id: 'soc', before: null, after: hookShown },
  ]);
  const trail = await t.node.call('GET', '/api/audit?kind=notifier', { token: admin });
  assert.ok(!trail.text.includes(secret) && !trail.text.includes(newSecret));
});

test('bad input: 400 naming the field, nothing stored, nothing audited', async () => {
  const { admin } = t.tokens;
  const before = await auditEntries();
  const refusals: [unknown, string][] = [
    [
      { ...hook, id: 'plain', url: 'http://hooks.example.com/weir' },
      "body.url must be an https:// URL, found 'http://hooks.example.com/weir'",
    ],
    [{ ...hook, id: 'nourl', url: 'hooks' }, "body.url must be an https:// URL, found 'hooks'"],
    [{ ...hook, id: 'short', secret: 'short' }, 'body.secret must NOT have fewer than 16 characters'],
    [
      { ...hook, id: 'sev', matcher: { minSeverity: 'severe' } },
      'body.matcher.minSeverity must be equal to one of the allowed values: informational, low, medium, high, critical',
    ],
    [
      { ...hook, id: 'tech', matcher: { techniques: ['brute force'] } },
      'body.matcher.techniques.0 must match pattern "^[Tt]\\d{4}(\\.\\d{3})?$"',
    ],
    [{ ...hook, id: 'rate', rateLimitPerMinute: 0 }, 'body.rateLimitPerMinute must be >= 1'],
    [
      { ...hook, id: 'ca', caCertificate: 'not a certificate' },
      'body.caCertificate must be a PEM certificate (-----BEGIN CERTIFICATE----- …)',
    ],
  ];
  for (const [body, message] of refusals) {
    const res = await t.node.call('POST', '/api/notifiers', { token: admin, body });
    assert.deepEqual([res.status, res.body], [400, schemaError(message)], message);
  }
  const { secret: _s, ...noSecret } = { ...hook, id: 'nosecret' };
  const missing = await t.node.call('POST', '/api/notifiers', { token: admin, body: noSecret });
  assert.deepEqual([missing.status, missing.body], [400, schemaError("body must have required property 'secret'")]);

  const plainPut = await t.node.call('PUT', '/api/notifiers/soc', {
    token: admin,
    body: { name: 'SOC', url: 'http://hooks.example.com/weir' },
  });
  assert.deepEqual(
    [plainPut.status, plainPut.body],
    [400, schemaError("body.url must be an https:// URL, found 'http://hooks.example.com/weir'")],
  );
  const otherId = await t.node.call('PUT', '/api/notifiers/soc', {
    token: admin,
    body: { id: 'other', name: 'SOC', url: 'https://x.example' },
  });
  assert.equal(otherId.status, 400);
  assert.equal(
    (otherId.body as { debugMessage: string }).debugMessage,
    'The id in the path (soc) differs from the id in the body (other); the id of a notifier cannot be changed. Leave the id out of the body or make them equal.',
  );
  const unknown = await t.node.call('PUT', '/api/notifiers/nobody', {
    token: admin,
    body: { name: 'N', url: 'https://x.example' },
  });
  assert.deepEqual(
    [unknown.status, unknown.body],
    [404, notFound('Notifier to update does not exist. Please use create (POST) endpoint.')],
  );
  const del = await t.node.call('DELETE', '/api/notifiers/nobody', { token: admin });
  assert.deepEqual([del.status, del.body], [404, notFound('Notifier to delete does not exist.')]);

  const list = await t.node.call('GET', '/api/notifiers', { token: admin });
  assert.deepEqual(
    (list.body as { id: string }[]).map((n) => n.id),
    ['soc'],
  );
  assert.equal((list.body as { url: string }[])[0]!.url, 'https://hooks.example.com/weir');
  assert.deepEqual(await auditEntries(), before);
});
