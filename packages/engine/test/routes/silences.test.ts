import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound, schemaError } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();

const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const matchers = [
  { field: '_rule.id', op: '=', value: 'failed-login' },
  { field: 'host.name', op: '=~', value: 'web-[0-9]+' },
];
/** A start an hour ago and an end in a day, on whole seconds (as a client would send them). */
const startsAt = Math.floor(Date.now() / 1000) * 1000 - hour;
const endsAt = startsAt + 25 * hour;
const body = { matchers, startsAt: iso(startsAt), endsAt, comment: 'web farm maintenance' };

type Shown = Record<string, unknown> & { id: string; createdAt: string };

async function create(token: string, b: unknown = body): Promise<Shown> {
  const res = await t.node.call('POST', '/api/silences', { token, body: b });
  assert.equal(res.status, 201, res.text);
  return res.body as Shown;
}

test('silence routes refuse callers without a valid token; a user may call every one', async () => {
  const id = (await create(t.tokens.admin)).id;
  const { user } = t.tokens;
  await assertRefusals(t.node, user, 'GET', '/api/silences', { adminOnly: false });
  await assertRefusals(t.node, user, 'GET', `/api/silences/${id}`, { adminOnly: false });
  await assertRefusals(t.node, user, 'POST', '/api/silences', { adminOnly: false, body });
  await assertRefusals(t.node, user, 'PUT', `/api/silences/${id}`, { adminOnly: false, body });
  await assertRefusals(t.node, user, 'POST', `/api/silences/${id}/expire`, { adminOnly: false });
});

test('POST creates (201, Location, the whole silence); GET reads it and lists it, filtered by state', async () => {
  const before = Date.now();
  const res = await t.node.call('POST', '/api/silences', { token: t.tokens.user, body });
  const created = res.body as Shown;
  assert.ok(Date.parse(created.createdAt) >= before && Date.parse(created.createdAt) <= Date.now());
  assert.deepEqual(
    [res.status, res.headers.location, created],
    [
      201,
      `/api/silences/${created.id}`,
      {
        id: created.id,
        matchers,
        startsAt: iso(startsAt),
        endsAt: iso(endsAt),
        comment: 'web farm maintenance',
        createdBy: 'alice',
        createdAt: created.createdAt,
        state: 'active',
      },
    ],
  );
  const one = await t.node.call('GET', `/api/silences/${created.id}`, { token: t.tokens.admin });
  assert.deepEqual([one.status, one.body], [200, created]);

  const later = await create(t.tokens.user, { ...body, startsAt: startsAt + 2 * hour, comment: 'later' });
  assert.equal(later.state, 'pending');
  const list = await t.node.call('GET', '/api/silences', { token: t.tokens.user });
  assert.equal(list.status, 200);
  const ids = (list.body as Shown[]).map((s) => s.id);
  assert.deepEqual(ids.slice(-2), [created.id, later.id], 'in the order they were created');
  const pending = await t.node.call('GET', '/api/silences?state=pending', { token: t.tokens.user });
  assert.deepEqual([pending.status, pending.body], [200, [later]]);
  const active = await t.node.call('GET', '/api/silences?state=active', { token: t.tokens.user });
  assert.ok((active.body as Shown[]).every((s) => s.state === 'active'));
  assert.ok((active.body as Shown[]).some((s) => s.id === created.id));
});

test('PUT edits a silence (matchers, times, comment) and names who did; an expired one is refused', async () => {
  const s = await create(t.tokens.user);
  const edit = { matchers: [matchers[0]], endsAt: iso(endsAt + hour), comment: 'longer' };
  const res = await t.node.call('PUT', `/api/silences/${s.id}`, { token: t.tokens.admin, body: edit });
  const updated = res.body as Shown;
  assert.deepEqual(
    [res.status, updated],
    [
      200,
      {
        ...s,
        matchers: [matchers[0]],
        endsAt: iso(endsAt + hour),
        comment: 'longer',
        updatedBy: 'admin',
        updatedAt: updated.updatedAt,
      },
    ],
  );
  assert.ok(Math.abs(Date.parse(updated.updatedAt as string) - Date.now()) < 10_000);

  const expired = await t.node.call('POST', `/api/silences/${s.id}/expire`, { token: t.tokens.user });
  const ended = expired.body as Shown;
  assert.deepEqual(
    [expired.status, ended],
    [200, { ...updated, endsAt: ended.endsAt, updatedBy: 'alice', updatedAt: ended.endsAt, state: 'expired' }],
  );
  const read = await t.node.call('GET', `/api/silences/${s.id}`, { token: t.tokens.user });
  assert.deepEqual([read.status, read.body], [200, ended], 'an expired silence stays readable');

  const again = await t.node.call('PUT', `/api/silences/${s.id}`, { token: t.tokens.admin, body: edit });
  assert.deepEqual(
    [again.status, again.body],
    [
      400,
      badRequest(`Silence ${s.id} expired at ${ended.endsAt}; an expired silence cannot be changed: create a new one.`),
    ],
  );
  const twice = await t.node.call('POST', `/api/silences/${s.id}/expire`, { token: t.tokens.admin });
  assert.deepEqual(
    [twice.status, twice.body],
    [400, badRequest(`Silence ${s.id} expired at ${ended.endsAt}; an expired silence cannot be expired again.`)],
  );
});

test('an unknown id: 404 on read, edit and expire; DELETE is no route', async () => {
  const { user } = t.tokens;
  const get = await t.node.call('GET', '/api/silences/nope', { token: user });
  assert.deepEqual([get.status, get.body], [404, notFound('Requested silence does not exist')]);
  const put = await t.node.call('PUT', '/api/silences/nope', { token: user, body });
  assert.deepEqual(
    [put.status, put.body],
    [404, notFound('Silence to update does not exist. Please use create (POST) endpoint.')],
  );
  const expire = await t.node.call('POST', '/api/silences/nope/expire', { token: user });
  assert.deepEqual([expire.status, expire.body], [404, notFound('Requested silence does not exist')]);
  const del = await t.node.call('DELETE', '/api/silences/nope', { token: user });
  assert.deepEqual([del.status, del.body], [404, notFound('No API route DELETE /api/silences/nope')]);
});

test('bad input: 400 naming the field, nothing stored', async () => {
  const { user } = t.tokens;
  const count = async () => ((await t.node.call('GET', '/api/silences', { token: user })).body as unknown[]).length;
  const stored = await count();
  const refused = async (b: unknown) => {
    const res = await t.node.call('POST', '/api/silences', { token: user, body: b });
    return [res.status, res.body];
  };
  assert.deepEqual(await refused({ ...body, matchers: [] }), [
    400,
    schemaError('body.matchers must NOT have fewer than 1 items'),
  ]);
  assert.deepEqual(await refused({ ...body, matchers: [{ field: 'user', op: '==', value: 'x' }] }), [
    400,
    schemaError('body.matchers.0.op must be equal to one of the allowed values: =, !=, =~, !~'),
  ]);
  assert.deepEqual(await refused({ ...body, matchers: [{ field: '', op: '=', value: 'x' }] }), [
    400,
    schemaError('body.matchers.0.field must NOT have fewer than 1 characters'),
  ]);
  assert.deepEqual(await refused({ ...body, comment: 'x'.repeat(4097) }), [
    400,
    schemaError('body.comment must NOT have more than 4096 characters'),
  ]);
  const regex =
    'body.matchers.1.value: not a regular expression: Invalid regular expression: /^(?:web-[0-9)$/u: Unterminated character class';
  assert.deepEqual(
    await refused({ ...body, matchers: [matchers[0], { field: 'host.name', op: '=~', value: 'web-[0-9' }] }),
    [400, schemaError(regex)],
  );
  const order = `body.endsAt: must be later than startsAt (${iso(startsAt)}); got ${iso(startsAt - hour)}`;
  assert.deepEqual(await refused({ ...body, endsAt: startsAt - hour }), [400, schemaError(order)]);
  const { matchers: _m, ...noMatchers } = body;
  assert.deepEqual(await refused(noMatchers), [400, schemaError("body must have required property 'matchers'")]);
  assert.equal(await count(), stored, 'nothing stored');

  const state = await t.node.call('GET', '/api/silences?state=silenced', { token: user });
  assert.deepEqual(
    [state.status, state.body],
    [400, badRequest("querystring.state must be one of pending, active, expired, found 'silenced'")],
  );
});

test('every write is audited: create, update and expire as kind silence, with who and the record', async () => {
  const s = await create(t.tokens.user, { ...body, comment: 'audited' });
  await t.node.call('PUT', `/api/silences/${s.id}`, {
    token: t.tokens.admin,
    body: { matchers, endsAt, comment: 'audited, edited' },
  });
  await t.node.call('POST', `/api/silences/${s.id}/expire`, { token: t.tokens.user });
  const audit = await t.node.call('GET', `/api/audit?kind=silence&id=${s.id}`, { token: t.tokens.admin });
  type Entry = { action: string; user: string; kind: string; before: Shown | null; after: Shown };
  const entries = (audit.body as { entries: Entry[] }).entries;
  assert.deepEqual(
    entries.map((e) => [e.kind, e.action, e.user, e.before?.comment ?? null, e.after.comment, e.after.endsAt]),
    [
      ['silence', 'update', 'alice', 'audited, edited', 'audited, edited', entries[0]!.after.endsAt],
      ['silence', 'update', 'admin', 'audited', 'audited, edited', iso(endsAt)],
      ['silence', 'create', 'alice', null, 'audited', iso(endsAt)],
    ],
  );
  const { state: _state, ...stored } = s;
  assert.deepEqual(entries[2]!.after, stored, 'the stored record, without its derived state');
  assert.notEqual(entries[0]!.after.endsAt, iso(endsAt), 'expire moved the end');
});
