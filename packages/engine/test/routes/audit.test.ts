import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();

/** Entries without their volatile fields (time, sequence number, address). */
function entries(body: unknown) {
  const page = body as { entries: Record<string, unknown>[] };
  return page.entries.map(({ time, seq, address, ...rest }) => {
    assert.ok(!Number.isNaN(Date.parse(String(time))), `time ${String(time)}`);
    assert.equal(typeof seq, 'number');
    assert.equal(typeof address, 'string');
    return rest;
  });
}

test('GET /api/audit is admin only', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/audit', { adminOnly: true });
});

test('GET /api/audit: newest first, filtered by kind, user and id, paged', async () => {
  const { admin } = t.tokens;
  const rule = { id: 'r1', name: 'R', description: '', pdl: 'a = 1', annotations: [], enabled: true };
  assert.equal((await t.node.call('POST', '/api/rules', { token: admin, body: rule })).status, 201);
  assert.equal((await t.node.call('DELETE', '/api/rules/r1', { token: admin })).status, 204);

  const res = await t.node.call('GET', '/api/audit?kind=rule', { token: admin });
  assert.equal(res.status, 200);
  assert.deepEqual(
    { ...(res.body as object), entries: entries(res.body) },
    {
      total: 2,
      offset: 0,
      limit: 100,
      entries: [
        { user: 'admin', kind: 'rule', action: 'delete', id: 'r1', before: rule, after: null },
        { user: 'admin', kind: 'rule', action: 'create', id: 'r1', before: null, after: rule },
      ],
    },
  );

  const paged = await t.node.call('GET', '/api/audit?kind=rule&offset=1&limit=1', { token: admin });
  assert.deepEqual(
    { ...(paged.body as object), entries: entries(paged.body) },
    {
      total: 2,
      offset: 1,
      limit: 1,
      entries: [{ user: 'admin', kind: 'rule', action: 'create', id: 'r1', before: null, after: rule }],
    },
  );

  const byId = await t.node.call('GET', '/api/audit?id=r1', { token: admin });
  assert.deepEqual(
    entries(byId.body).map((e) => e.action),
    ['delete', 'create'],
  );
  const logins = await t.node.call('GET', '/api/audit?kind=login&user=alice', { token: admin });
  assert.deepEqual(entries(logins.body), [{ user: 'alice', kind: 'login', action: 'success', id: 'alice' }]);
  const future = await t.node.call('GET', '/api/audit?from=2999-01-01T00:00:00Z', { token: admin });
  assert.deepEqual(future.body, { total: 0, offset: 0, limit: 100, entries: [] });
});

test('GET /api/audit: a bad limit or time is a 400 naming the parameter', async () => {
  const { admin } = t.tokens;
  const limit = await t.node.call('GET', '/api/audit?limit=0', { token: admin });
  assert.deepEqual([limit.status, limit.body], [400, badRequest('query.limit must be from 1 to 1000; got 0')]);
  const from = await t.node.call('GET', '/api/audit?from=yesterday', { token: admin });
  assert.deepEqual(
    [from.status, from.body],
    [
      400,
      badRequest(
        "query.from must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch; got 'yesterday'",
      ),
    ],
  );
  const over = await t.node.call('GET', '/api/audit?limit=5000', { token: admin });
  assert.deepEqual([over.status, over.body], [400, badRequest('query.limit must be from 1 to 1000; got 5000')]);
  const far = await t.node.call('GET', '/api/audit?limit=100000', { token: admin });
  assert.deepEqual([far.status, far.body], [400, badRequest('query.limit must be from 1 to 1000; got 100000')]);
  const offset = await t.node.call('GET', '/api/audit?offset=next', { token: admin });
  assert.deepEqual(
    [offset.status, offset.body],
    [400, badRequest("querystring.offset must be an integer >= 0, found 'next'")],
  );
  const unknown = await t.node.call('GET', '/api/audit?colour=red', { token: admin });
  const extra = "querystring must NOT have additional properties 'colour'";
  assert.deepEqual([unknown.status, unknown.body], [400, { ...badRequest(extra), errors: [extra] }]);
});
