import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();
const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';

/** One record of each kind, in the latest form (what the API answers), an invalid one and its violations. */
const kinds = [
  {
    path: 'tasks',
    one: 'task',
    record: { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} },
    invalid: { id: 3, name: 'bad', function: 'TIMESTAMP', definition: { format: 5 } },
    violations: ['definition.field: is required', 'definition.format: must be string'],
  },
  {
    path: 'pipelines',
    one: 'pipeline',
    record: { id: 1, name: 'main', description: 'd', tasks: [1] },
    invalid: { id: 3, name: '', tasks: ['one'] },
    violations: ['name: must NOT have fewer than 1 characters', 'tasks[0]: must be integer'],
  },
  {
    path: 'topologies',
    one: 'topology',
    record: {
      id: 1,
      name: 'topo',
      description: '',
      pipelines: [1],
      enabled: false,
      group: 'default',
      input: { name: 'in', keySerde: S, valueSerde: S },
      output: [{ name: 'out', keySerde: S, valueSerde: S }],
    },
    invalid: { id: 3, name: 'bad', pipelines: [1], input: { name: 'in' }, output: [{ name: 'bad topic!' }] },
    violations: ['output[0].name: "bad topic!" does not match ^[A-Za-z0-9._-]{1,249}$'],
  },
  {
    path: 'rules',
    one: 'rule',
    record: {
      id: 'rule-1',
      name: 'Shell',
      description: '',
      pdl: 'process = "sh"',
      annotations: ['T1059'],
      enabled: true,
    },
    invalid: { id: 'rule-3', name: 'bad', enabled: 'yes' },
    violations: ['pdl: is required', 'enabled: must be boolean'],
  },
] as const;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

for (const k of kinds) {
  const base = `/api/${k.path}`;
  const id = String(k.record.id);
  const missing = k.path === 'rules' ? 'no-such-rule' : '999';

  test(`${k.path}: reads are open to users, writes to admins only; no token is refused`, async () => {
    await assertRefusals(t.node, t.tokens.user, 'GET', base, { adminOnly: false });
    await assertRefusals(t.node, t.tokens.user, 'GET', `${base}/${id}`, { adminOnly: false });
    await assertRefusals(t.node, t.tokens.user, 'POST', base, { adminOnly: true, body: k.record });
    await assertRefusals(t.node, t.tokens.user, 'PUT', `${base}/${id}`, { adminOnly: true, body: k.record });
    await assertRefusals(t.node, t.tokens.user, 'DELETE', `${base}/${id}`, { adminOnly: true });
    await assertRefusals(t.node, t.tokens.user, 'POST', `/api/bulk/${k.path}`, { adminOnly: true, body: [k.record] });
  });

  test(`${k.path}: create, conflict, invalid, list (ETag), read, update, bulk, delete`, async () => {
    const { admin, user } = t.tokens;
    const call = (method: string, url: string, body?: unknown, token = admin) =>
      t.node.call(method, url, { token, body });

    const created = await call('POST', base, k.record);
    assert.deepEqual([created.status, created.headers.location, created.body], [201, base, k.record]);
    const again = await call('POST', base, k.record);
    assert.deepEqual(
      [again.status, again.body],
      [
        409,
        {
          status: 'CONFLICT',
          message: 'Resource already exists',
          debugMessage: `${cap(k.one)} already exists, can not create a new one. Please use update (PUT) endpoint.`,
        },
      ],
    );
    const invalid = await call('POST', base, k.invalid);
    const errors = (invalid.body as { errors: string[] }).errors;
    assert.deepEqual([...errors].sort(), [...k.violations].sort());
    assert.deepEqual(
      [invalid.status, invalid.body],
      [400, { ...badRequest(`Invalid ${k.one}: ${errors.join('; ')}`), errors }],
    );

    const list = await call('GET', base, undefined, user);
    assert.deepEqual([list.status, list.body], [200, [k.record]]);
    const etag = String(list.headers.etag);
    const unchanged = await t.node.call('GET', base, { token: user, headers: { 'if-none-match': etag } });
    assert.deepEqual([unchanged.status, unchanged.text], [304, '']);
    const one = await call('GET', `${base}/${id}`, undefined, user);
    assert.deepEqual([one.status, one.body], [200, k.record]);
    const none = await call('GET', `${base}/${missing}`);
    assert.deepEqual([none.status, none.body], [404, notFound(`Requested ${k.one} does not exist`)]);

    const changed = { ...k.record, name: `${k.record.name} v2` };
    const updated = await call('PUT', `${base}/${id}`, changed);
    assert.deepEqual([updated.status, updated.body], [200, changed]);
    const mismatch = await call('PUT', `${base}/${id}`, { ...changed, id: k.invalid.id });
    assert.deepEqual(
      [mismatch.status, mismatch.body],
      [
        400,
        badRequest(
          `The id in the path (${id}) differs from the id in the body (${String(k.invalid.id)}); the id of a ${k.one} cannot be changed. Leave the id out of the body or make them equal.`,
        ),
      ],
    );
    const updateMissing = await call('PUT', `${base}/${missing}`, {
      ...changed,
      id: k.path === 'rules' ? missing : 999,
    });
    assert.deepEqual(
      [updateMissing.status, updateMissing.body],
      [404, notFound(`${cap(k.one)} to update does not exist. Please use create (POST) endpoint.`)],
    );

    const bulk = await call('POST', `/api/bulk/${k.path}`, [k.record]);
    assert.deepEqual([bulk.status, bulk.body], [200, [k.record]]);
    const bulkInvalid = await call('POST', `/api/bulk/${k.path}`, [changed, k.invalid]);
    assert.equal(bulkInvalid.status, 400);
    assert.deepEqual((await call('GET', base)).body, [k.record], 'a refused bulk stores nothing');

    const deleted = await call('DELETE', `${base}/${id}`);
    assert.deepEqual([deleted.status, deleted.text], [204, '']);
    const deleteAgain = await call('DELETE', `${base}/${id}`);
    assert.deepEqual(
      [deleteAgain.status, deleteAgain.body],
      [404, notFound(`${cap(k.one)} to delete does not exist.`)],
    );
    assert.deepEqual((await call('GET', base)).body, []);
  });
}

test('rules: a suppression is stored and read back; bad fields or a bad window are refused naming the field, nothing stored', async () => {
  const { admin } = t.tokens;
  const rule = {
    id: 'sup-1',
    name: 'Sup',
    pdl: 'a=1',
    enabled: true,
    suppression: { fields: ['user.name', 'host'], window: '5m' },
  };
  const created = await t.node.call('POST', '/api/rules', { token: admin, body: rule });
  assert.deepEqual([created.status, created.body], [201, rule]);
  assert.deepEqual((await t.node.call('GET', '/api/rules/sup-1', { token: admin })).body, rule);
  const cases: [unknown, string][] = [
    [{ fields: [], window: '5m' }, 'suppression.fields: must NOT have fewer than 1 items'],
    [{ fields: ['user..name'], window: '5m' }, 'suppression.fields[0]: "user..name" does not match ^[^.]+(\\.[^.]+)*$'],
    [
      { fields: ['user'], window: '5 minutes' },
      'suppression.window: "5 minutes" does not match ^[1-9][0-9]{0,8}[smhdw]$',
    ],
    [{ fields: ['user'] }, 'suppression.window: is required'],
    [
      { fields: ['user'], window: '1h', count: 3 },
      'suppression.count: is not an accepted field; accepted: fields, window',
    ],
  ];
  for (const [suppression, error] of cases) {
    const refused = await t.node.call('POST', '/api/rules', {
      token: admin,
      body: { ...rule, id: 'sup-2', suppression },
    });
    assert.deepEqual(
      [refused.status, refused.body],
      [400, { ...badRequest(`Invalid rule: ${error}`), errors: [error] }],
    );
  }
  assert.equal((await t.node.call('GET', '/api/rules/sup-2', { token: admin })).status, 404);
  await t.node.call('DELETE', '/api/rules/sup-1', { token: admin });
});

test('rules: a severity is stored and read back; one that is not among the five is refused naming the field, nothing stored', async () => {
  const { admin } = t.tokens;
  const rule = { id: 'sev-1', name: 'Sev', pdl: 'a=1', enabled: true, severity: 'critical' };
  const created = await t.node.call('POST', '/api/rules', { token: admin, body: rule });
  assert.deepEqual([created.status, created.body], [201, rule]);
  assert.deepEqual((await t.node.call('GET', '/api/rules/sev-1', { token: admin })).body, rule);
  const refused = await t.node.call('POST', '/api/rules', {
    token: admin,
    body: { ...rule, id: 'sev-2', severity: 'severe' },
  });
  const errors = ['severity: must be one of informational, low, medium, high, critical'];
  assert.deepEqual([refused.status, refused.body], [400, { ...badRequest(`Invalid rule: ${errors[0]}`), errors }]);
  assert.equal((await t.node.call('GET', '/api/rules/sev-2', { token: admin })).status, 404);
  await t.node.call('DELETE', '/api/rules/sev-1', { token: admin });
});
