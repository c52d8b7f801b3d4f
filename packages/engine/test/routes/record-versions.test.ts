import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();

const rule = {
  id: 'shell',
  name: 'Shell',
  description: '',
  pdl: 'process = "sh"\nAND user = "root"',
  annotations: ['T1059'],
  enabled: true,
};
const base = '/api/rules/shell/versions';

/** A version's body with its time checked (an ISO date-time of the last minute) and left out. */
function untimed(body: unknown): unknown {
  const strip = (v: Record<string, unknown>) => {
    const { time, ...rest } = v;
    assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Math.abs(Date.parse(String(time)) - Date.now()) < 60_000, `${String(time)} is recent`);
    return rest;
  };
  return Array.isArray(body) ? body.map(strip) : strip(body as Record<string, unknown>);
}

test('versions: reading is open to users; a rollback is for admins only', async () => {
  await t.node.call('POST', '/api/rules', { token: t.tokens.admin, body: { ...rule, id: 'roles' } });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/rules/roles/versions', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/rules/roles/versions/1', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/rules/roles/versions/1/diff/1', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/rules/roles/versions/1/rollback', { adminOnly: true });
});

test('a rule: every change is a version with who, when and the note; diff; deleted and rolled back', async () => {
  const { admin, user } = t.tokens;
  const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>, token = admin) =>
    t.node.call(method, url, { token, body, ...(headers ? { headers } : {}) });

  assert.equal((await call('POST', '/api/rules', rule, { 'x-weir-change-note': 'first cut' })).status, 201);
  const v2 = { ...rule, pdl: 'process = "sh"\nAND user = "admin"\nAND tty = true', severity: 'high' };
  const note = encodeURIComponent('only root → admin, 50% fewer alerts');
  assert.equal((await call('PUT', '/api/rules/shell', v2, { 'x-weir-change-note': note })).status, 200);
  const v3 = { ...v2, enabled: false };
  assert.equal((await call('POST', '/api/bulk/rules', [v3])).status, 200);

  const list = await call('GET', base, undefined, undefined, user);
  assert.equal(list.status, 200);
  assert.deepEqual(untimed(list.body), [
    { version: 1, user: 'admin', action: 'create', note: 'first cut' },
    { version: 2, user: 'admin', action: 'update', note: 'only root → admin, 50% fewer alerts' },
    { version: 3, user: 'admin', action: 'update' },
  ]);
  const one = await call('GET', `${base}/2`, undefined, undefined, user);
  assert.deepEqual(untimed(one.body), {
    version: 2,
    user: 'admin',
    action: 'update',
    note: 'only root → admin, 50% fewer alerts',
    record: v2,
  });

  const diff = await call('GET', `${base}/1/diff/2`, undefined, undefined, user);
  assert.deepEqual(
    [diff.status, diff.body],
    [
      200,
      {
        from: 1,
        to: 2,
        changes: [
          { path: 'pdl', before: rule.pdl, after: v2.pdl },
          { path: 'severity', after: 'high' },
        ],
        pdl: [
          { op: ' ', text: 'process = "sh"' },
          { op: '-', text: 'AND user = "root"' },
          { op: '+', text: 'AND user = "admin"' },
          { op: '+', text: 'AND tty = true' },
        ],
      },
    ],
  );

  // A deletion is a version too; the history stays, and a rollback recreates the rule.
  assert.equal((await call('DELETE', '/api/rules/shell', undefined, { 'x-weir-change-note': 'noisy' })).status, 204);
  const afterDelete = await call('GET', `${base}/4`);
  assert.deepEqual(untimed(afterDelete.body), {
    version: 4,
    user: 'admin',
    action: 'delete',
    note: 'noisy',
    record: null,
  });
  const toDeletion = await call('GET', `${base}/3/diff/4`);
  assert.deepEqual(toDeletion.body, {
    from: 3,
    to: 4,
    changes: [{ path: '(record)', before: v3, after: null }],
    pdl: [
      { op: '-', text: 'process = "sh"' },
      { op: '-', text: 'AND user = "admin"' },
      { op: '-', text: 'AND tty = true' },
    ],
  });

  const rollback = await call('POST', `${base}/2/rollback`, undefined, { 'x-weir-change-note': 'back to v2' });
  assert.deepEqual([rollback.status, rollback.body], [200, v2]);
  assert.deepEqual((await call('GET', '/api/rules/shell')).body, v2);
  const last = await call('GET', `${base}/5`);
  assert.deepEqual(untimed(last.body), {
    version: 5,
    user: 'admin',
    action: 'create',
    note: 'back to v2',
    rollbackOf: 2,
    record: v2,
  });
  const audit = await call('GET', '/api/audit?kind=rule&id=shell&limit=1');
  const [entry] = (audit.body as { entries: { action: string; detail?: string }[] }).entries;
  assert.deepEqual([entry?.action, entry?.detail], ['create', 'rollback to version 2; note: back to v2']);
});

test('versions: bad input names what and where', async () => {
  const { admin } = t.tokens;
  const call = (method: string, url: string, headers?: Record<string, string>, body?: unknown) =>
    t.node.call(method, url, { token: admin, body, ...(headers ? { headers } : {}) });
  await call('POST', '/api/rules', undefined, { ...rule, id: 'bad-input' });

  const cases: [string, string, number, unknown][] = [
    [
      'GET',
      '/api/rules/bad-input/versions/7',
      404,
      notFound("Rule 'bad-input' has no version 7; it has versions 1 to 1."),
    ],
    [
      'GET',
      '/api/rules/never/versions',
      404,
      notFound("Rule 'never' has no versions: no rule with this id was changed since versions are kept."),
    ],
    [
      'GET',
      '/api/rules/bad-input/versions/two',
      400,
      badRequest("The path parameter version ('two') is not a version number; versions are whole numbers from 1."),
    ],
    [
      'GET',
      '/api/rules/bad-input/versions/1/diff/0',
      400,
      badRequest("The path parameter to ('0') is not a version number; versions are whole numbers from 1."),
    ],
    [
      'GET',
      '/api/rules/bad-input/versions/1/diff/3',
      404,
      notFound("Rule 'bad-input' has no version 3; it has versions 1 to 1."),
    ],
    [
      'POST',
      '/api/rules/bad-input/versions/9/rollback',
      404,
      notFound("Rule 'bad-input' has no version 9; it has versions 1 to 1."),
    ],
    [
      'GET',
      '/api/tasks/abc/versions',
      400,
      badRequest("'abc' is not a valid task id; accepted: an integer from 0 to 9007199254740991."),
    ],
  ];
  for (const [method, url, status, body] of cases) {
    const res = await call(method, url);
    assert.deepEqual([res.status, res.body], [status, body], `${method} ${url}`);
  }

  await call('DELETE', '/api/rules/bad-input');
  const toDeletion = await call('POST', '/api/rules/bad-input/versions/2/rollback');
  assert.deepEqual(
    [toDeletion.status, toDeletion.body],
    [
      400,
      badRequest(
        "Version 2 of rule 'bad-input' records its deletion and holds no rule; roll back to a version that holds one, or delete the rule.",
      ),
    ],
  );

  const badNote = await call('POST', '/api/rules', { 'x-weir-change-note': '100%' }, { ...rule, id: 'noted' });
  assert.deepEqual(
    [badNote.status, badNote.body],
    [
      400,
      badRequest(
        'The header X-Weir-Change-Note holds a % that does not start a valid percent-encoded UTF-8 sequence; encode the note with encodeURIComponent (a literal % is %25).',
      ),
    ],
  );
  const longNote = await call(
    'POST',
    '/api/rules',
    { 'x-weir-change-note': 'x'.repeat(1001) },
    { ...rule, id: 'noted' },
  );
  assert.deepEqual(
    [longNote.status, longNote.body],
    [400, badRequest('The header X-Weir-Change-Note is 1001 characters long; a change note has at most 1000.')],
  );
  assert.equal((await call('GET', '/api/rules/noted')).status, 404, 'a refused note stores nothing');
});

test('tasks, pipelines and topologies have versions too; a Sigma import notes itself', async () => {
  const { admin } = t.tokens;
  const call = (method: string, url: string, body?: unknown) => t.node.call(method, url, { token: admin, body });
  const task = { id: 41, name: 'kv', description: '', function: 'PARSE_KV', definition: {} };
  await call('POST', '/api/tasks', task);
  await call('PUT', '/api/tasks/41', { ...task, name: 'kv2' });
  const pipeline = { id: 41, name: 'p', description: '', tasks: [41] };
  await call('POST', '/api/pipelines', pipeline);
  const S = 'org.apache.kafka.common.serialization.Serdes$StringSerde';
  const topology = {
    id: 41,
    name: 'topo',
    description: '',
    pipelines: [41],
    enabled: false,
    group: 'default',
    input: { name: 'in', keySerde: S, valueSerde: S },
    output: [{ name: 'out', keySerde: S, valueSerde: S }],
  };
  await call('POST', '/api/topologies', topology);

  const taskDiff = await call('GET', '/api/tasks/41/versions/1/diff/2');
  assert.deepEqual(taskDiff.body, { from: 1, to: 2, changes: [{ path: 'name', before: 'kv', after: 'kv2' }] });
  const back = await call('POST', '/api/tasks/41/versions/1/rollback');
  assert.deepEqual([back.status, back.body], [200, task]);
  assert.deepEqual(untimed((await call('GET', '/api/tasks/41/versions')).body), [
    { version: 1, user: 'admin', action: 'create' },
    { version: 2, user: 'admin', action: 'update' },
    { version: 3, user: 'admin', action: 'update', rollbackOf: 1 },
  ]);
  assert.deepEqual(untimed((await call('GET', '/api/pipelines/41/versions/1')).body), {
    version: 1,
    user: 'admin',
    action: 'create',
    record: pipeline,
  });
  assert.deepEqual(untimed((await call('GET', '/api/topologies/41/versions')).body), [
    { version: 1, user: 'admin', action: 'create' },
  ]);

  const sigma = `title: Rar use
id: 6f3e2987-db24-4c78-a860-b4f4095a7095
logsource: {category: process_creation, product: windows}
detection:
  selection:
    Image|endswith: '\\rar.exe'
  condition: selection
`;
  assert.equal((await call('POST', '/api/import/sigma', { yaml: sigma })).status, 200);
  const imported = await call('GET', '/api/rules/sigma-6f3e2987-db24-4c78-a860-b4f4095a7095/versions');
  assert.deepEqual(untimed(imported.body), [{ version: 1, user: 'admin', action: 'create', note: 'Sigma import' }]);
});
