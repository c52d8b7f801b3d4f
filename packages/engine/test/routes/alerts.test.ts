import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { alertId, alertRecord, alertRecords } from '../alerts/alert-fixtures.ts';
import { badRequest, notFound, schemaError } from '@weir/test-helpers/error-bodies';

const alertsTopic = 'weir_alerts';
const triageTopic = 'weir_alert_triage';

const specs = [
  { n: 1, rule: 'failed-login', severity: 'low', user: 'alice' },
  { n: 2, rule: 'failed-login', severity: 'high', user: 'bob' },
  { n: 3, rule: 'root-login', severity: 'critical', user: 'root', techniques: ['T1078'] },
  { n: 4, rule: 'root-login', severity: 'medium', user: 'alice', techniques: ['T1078', 'T1110'] },
];

const t = useInProcessNode({}, async () => {
  await t.node.topics.admin.create({ name: triageTopic, numberOfPartitions: 1, replicationFactor: 1, options: {} });
  t.node.context.alerts.index.ingest(alertsTopic, alertRecords(specs), new Map([[0, specs.length]]));
});

/** The alert as the API shows it before any triage. */
function untouched(n: number) {
  const spec = specs.find((s) => s.n === n)!;
  const record = alertRecord(spec);
  const meta = record._alert as Record<string, unknown>;
  return {
    id: alertId(n),
    time: meta.time,
    rule: { id: spec.rule, name: `Rule ${spec.rule}` },
    severity: spec.severity,
    techniques: meta.techniques,
    source: meta.source,
    status: 'new',
    resolution: null,
    assignee: null,
    notes: [],
    updatedBy: null,
    updatedAt: 0,
    record,
    silencedBy: [] as string[],
  };
}

const ids = (body: unknown) => (body as { alerts: { id: string }[] }).alerts.map((a) => a.id);
const get = (url: string) => t.node.call('GET', url, { token: t.tokens.user });

test('/api/alerts: every route needs a signed-in user (401, 403 with no body)', async () => {
  for (const [method, url, body] of [
    ['GET', '/api/alerts'],
    ['GET', `/api/alerts/${alertId(1)}`],
    ['PATCH', `/api/alerts/${alertId(1)}`, { status: 'acknowledged' }],
    ['POST', '/api/alerts/triage', { ids: [alertId(1)], change: { status: 'acknowledged' } }],
    ['GET', '/api/alerts/groups?by=rule'],
  ] as const)
    await assertRefusals(t.node, t.tokens.user, method, url, { adminOnly: false, body });
});

test('GET /api/alerts: newest first, the whole alert, filters', async () => {
  const all = await get('/api/alerts');
  assert.equal(all.status, 200);
  assert.deepEqual(all.body, { alerts: [4, 3, 2, 1].map(untouched), nextCursor: null });
  const cases: [string, number[]][] = [
    ['rule=root-login', [4, 3]],
    ['severity=high&severity=critical', [3, 2]],
    ['minSeverity=medium', [4, 3, 2]],
    ['minSeverity=high&severity=low&severity=high', [2]],
    ['technique=T1078', [4, 3]],
    ['technique=t1110', [4, 2, 1]],
    ['field.user=alice', [4, 1]],
    ['field.user=alice&rule=failed-login', [1]],
    ['q=USER%3DROOT', [3]],
    ['q=root-login', [4, 3]],
    [`from=${1_700_000_002_000}&to=2023-11-14T22:13:23Z`, [3, 2]],
    ['status=new', [4, 3, 2, 1]],
    ['status=closed', []],
  ];
  for (const [query, expected] of cases) {
    const res = await get(`/api/alerts?${query}`);
    assert.equal(res.status, 200, query);
    assert.deepEqual(ids(res.body), expected.map(alertId), query);
  }
});

test('GET /api/alerts: cursor pagination walks every alert once', async () => {
  const first = await get('/api/alerts?limit=3');
  const page1 = first.body as { alerts: unknown[]; nextCursor: string };
  assert.deepEqual(ids(page1), [4, 3, 2].map(alertId));
  assert.equal(typeof page1.nextCursor, 'string');
  const second = await get(`/api/alerts?limit=3&cursor=${page1.nextCursor}`);
  assert.deepEqual(second.body, { alerts: [untouched(1)], nextCursor: null });
});

test('GET /api/alerts: bad input is a 400 naming the parameter', async () => {
  const cases: [string, unknown][] = [
    ['status=open', badRequest("query.status must be one of new, acknowledged, closed; got 'open'")],
    ['status=new&status=gone', badRequest("query.status must be one of new, acknowledged, closed; got 'gone'")],
    [
      'severity=urgent',
      badRequest("query.severity must be one of informational, low, medium, high, critical; got 'urgent'"),
    ],
    [
      'cursor=bm90LWEtY3Vyc29y',
      badRequest('query.cursor is not a cursor of this API (pass nextCursor of the previous page)'),
    ],
    [
      'from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z',
      badRequest('query.from (2024-01-02T00:00:00Z) is after query.to (2024-01-01T00:00:00Z)'),
    ],
    ['limit=0', badRequest('query.limit must be from 1 to 1000; got 0')],
    ['limit=1001', badRequest('query.limit must be from 1 to 1000; got 1001')],
    [
      'from=yesterday',
      badRequest(
        "query.from must be an ISO 8601 date-time (2026-11-23T06:00:00Z) or milliseconds since the epoch; got 'yesterday'",
      ),
    ],
    [
      'field.a..b=1',
      badRequest(
        "query.field.a..b must name a field by its dotted path (letters, digits, _ @ $ -, separated by dots); got 'a..b'",
      ),
    ],
  ];
  for (const [query, body] of cases) {
    const res = await get(`/api/alerts?${query}`);
    assert.deepEqual([res.status, res.body], [400, body], query);
  }
});

test('GET /api/alerts/{id}: the alert, or 404 ALERT_MISSING', async () => {
  const one = await get(`/api/alerts/${alertId(2)}`);
  assert.deepEqual([one.status, one.body], [200, untouched(2)]);
  const missing = await get('/api/alerts/0123456789abcdef0123456789abcdef');
  assert.deepEqual(
    [missing.status, missing.body],
    [404, notFound('Requested alert does not exist: 0123456789abcdef0123456789abcdef')],
  );
});

test('GET /api/alerts/groups: by rule and by field, with first and last seen; a bad by is a 400', async () => {
  const byRule = await get('/api/alerts/groups?by=rule');
  assert.deepEqual(
    [byRule.status, byRule.body],
    [
      200,
      {
        by: 'rule',
        groups: [
          { key: 'failed-login', count: 2, firstSeen: 1_700_000_001_000, lastSeen: 1_700_000_002_000 },
          { key: 'root-login', count: 2, firstSeen: 1_700_000_003_000, lastSeen: 1_700_000_004_000 },
        ],
      },
    ],
  );
  const byUser = await get(`/api/alerts/groups?by=field:user&from=${1_700_000_002_000}`);
  assert.deepEqual(byUser.body, {
    by: 'field:user',
    groups: [
      { key: 'alice', count: 1, firstSeen: 1_700_000_004_000, lastSeen: 1_700_000_004_000 },
      { key: 'bob', count: 1, firstSeen: 1_700_000_002_000, lastSeen: 1_700_000_002_000 },
      { key: 'root', count: 1, firstSeen: 1_700_000_003_000, lastSeen: 1_700_000_003_000 },
    ],
  });
  const bad = await get('/api/alerts/groups?by=host');
  assert.deepEqual(
    [bad.status, bad.body],
    [400, badRequest("query.by must be 'rule' or 'field:<dotted path>'; got 'host'")],
  );
  const none = await get('/api/alerts/groups');
  assert.deepEqual([none.status, none.body], [400, schemaError("querystring must have required property 'by'")]);
});

test('PATCH /api/alerts/{id}: triage written to the triage topic, shown at once, audited', async () => {
  const id = alertId(1);
  const ack = await t.node.call('PATCH', `/api/alerts/${id}`, {
    token: t.tokens.user,
    body: { status: 'acknowledged', assignee: 'alice', note: 'looking' },
  });
  assert.equal(ack.status, 200);
  const acked = ack.body as { notes: { time: number }[]; updatedAt: number };
  const noteTime = acked.notes[0]!.time;
  assert.deepEqual(ack.body, {
    ...untouched(1),
    status: 'acknowledged',
    assignee: 'alice',
    notes: [{ user: 'alice', time: noteTime, text: 'looking' }],
    updatedBy: 'alice',
    updatedAt: noteTime,
  });
  const closed = await t.node.call('PATCH', `/api/alerts/${id}`, {
    token: t.tokens.admin,
    body: { status: 'closed', resolution: 'false_positive' },
  });
  const after = closed.body as { updatedAt: number };
  assert.deepEqual(
    [closed.status, closed.body],
    [
      200,
      {
        ...untouched(1),
        status: 'closed',
        resolution: 'false_positive',
        assignee: 'alice',
        notes: [{ user: 'alice', time: noteTime, text: 'looking' }],
        updatedBy: 'admin',
        updatedAt: after.updatedAt,
      },
    ],
  );
  // the list filters see it
  assert.deepEqual(ids((await get('/api/alerts?status=closed')).body), [id]);
  assert.deepEqual(ids((await get('/api/alerts?assignee=alice')).body), [id]);
  // one record per change on the triage topic
  assert.deepEqual(t.node.topics.endOffsets(triageTopic), [2]);
  // audited: who, what
  const audit = await t.node.call('GET', `/api/audit?kind=alert&id=${id}`, { token: t.tokens.admin });
  type Entry = { user: string; action: string; detail: string; before: { status: string }; after: unknown };
  const entries = (audit.body as { entries: Entry[] }).entries;
  assert.deepEqual(
    entries.map((e) => [e.user, e.action, e.detail, e.before.status]),
    [
      ['admin', 'triage', 'status acknowledged → closed, resolution false_positive', 'acknowledged'],
      ['alice', 'triage', 'status new → acknowledged, assignee alice, note added', 'new'],
    ],
  );
  const {
    id: _i,
    time: _t,
    rule: _r,
    severity: _s,
    techniques: _q,
    source: _o,
    record: _c,
    silencedBy: _b,
    ...triageAfter
  } = closed.body as Record<string, unknown>;
  assert.deepEqual(entries[0]!.after, triageAfter);
});

test('PATCH /api/alerts/{id}: bad changes are a 400 naming the field, nothing changed; an unknown id is a 404', async () => {
  const id = alertId(2);
  const cases: [unknown, unknown][] = [
    [
      { status: 'open' },
      schemaError('body.status must be equal to one of the allowed values: new, acknowledged, closed'),
    ],
    [{}, schemaError('body must NOT have fewer than 1 properties')],
    [
      { status: 'closed' },
      badRequest(
        'body.resolution is required to close an alert: one of true_positive, false_positive, benign, duplicate, other',
      ),
    ],
    [
      { resolution: 'benign' },
      badRequest(
        "body.resolution is only accepted when the alert is closed (status 'closed'); the status would be 'new'",
      ),
    ],
  ];
  for (const [body, error] of cases) {
    const res = await t.node.call('PATCH', `/api/alerts/${id}`, { token: t.tokens.user, body });
    assert.deepEqual([res.status, res.body], [400, error], JSON.stringify(body));
  }
  assert.deepEqual((await get(`/api/alerts/${id}`)).body, untouched(2));
  const missing = await t.node.call('PATCH', '/api/alerts/ffffffffffffffffffffffffffffffff', {
    token: t.tokens.user,
    body: { status: 'acknowledged' },
  });
  assert.deepEqual(
    [missing.status, missing.body],
    [404, notFound('Requested alert does not exist: ffffffffffffffffffffffffffffffff')],
  );
});

test('POST /api/alerts/triage: one change for many alerts, all or none', async () => {
  const some = [alertId(3), alertId(4)];
  const unknown = ['ffffffffffffffffffffffffffffffff', 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'];
  const refused = await t.node.call('POST', '/api/alerts/triage', {
    token: t.tokens.user,
    body: { ids: [...some, ...unknown], change: { status: 'acknowledged' } },
  });
  assert.deepEqual(
    [refused.status, refused.body],
    [
      404,
      {
        ...notFound(`Requested alert does not exist: ${unknown.join(', ')}`),
        errors: unknown.map((u) => `${u}: not stored`),
      },
    ],
  );
  assert.deepEqual(ids((await get('/api/alerts?status=acknowledged')).body), []);
  const empty = await t.node.call('POST', '/api/alerts/triage', {
    token: t.tokens.user,
    body: { ids: [], change: { status: 'acknowledged' } },
  });
  assert.deepEqual([empty.status, empty.body], [400, schemaError('body.ids must NOT have fewer than 1 items')]);

  const done = await t.node.call('POST', '/api/alerts/triage', {
    token: t.tokens.user,
    body: { ids: some, change: { status: 'acknowledged' } },
  });
  assert.equal(done.status, 200);
  assert.deepEqual(
    (done.body as { alerts: { id: string; status: string; updatedBy: string }[] }).alerts.map((a) => [
      a.id,
      a.status,
      a.updatedBy,
    ]),
    some.map((id) => [id, 'acknowledged', 'alice']),
  );
  assert.deepEqual(ids((await get('/api/alerts?status=acknowledged')).body), [...some].reverse());
});

test('PATCH /api/alerts/{id}: a triage that cannot be written to the triage topic is a 503, nothing changed', async () => {
  await t.node.topics.admin.delete(triageTopic);
  try {
    const res = await t.node.call('PATCH', `/api/alerts/${alertId(2)}`, {
      token: t.tokens.user,
      body: { status: 'acknowledged' },
    });
    assert.deepEqual(
      [res.status, res.body],
      [
        503,
        {
          status: 'SERVICE_UNAVAILABLE',
          message: 'Service unavailable',
          debugMessage:
            'Nothing was changed: the triage could not be written to weir_alert_triage (This server does not host this topic-partition.).',
        },
      ],
    );
    assert.deepEqual((await get(`/api/alerts/${alertId(2)}`)).body, untouched(2));
  } finally {
    await t.node.topics.admin.create({ name: triageTopic, numberOfPartitions: 1, replicationFactor: 1, options: {} });
  }
});

test('an alert matched by an active silence shows it in `silencedBy`; a pending silence does not count yet', async () => {
  const { user } = t.tokens;
  const silence = async (matchers: object[], startsAt: number, endsAt: number) => {
    const res = await t.node.call('POST', '/api/silences', {
      token: user,
      body: { matchers, startsAt, endsAt, comment: 'test' },
    });
    assert.equal(res.status, 201, res.text);
    return (res.body as { id: string }).id;
  };
  const hour = 3_600_000;
  const active = await silence(
    [{ field: '_rule.id', op: '=', value: 'root-login' }],
    Date.now() - hour,
    Date.now() + hour,
  );
  await silence(
    [{ field: '_rule.id', op: '=', value: 'failed-login' }],
    Date.now() + 24 * hour,
    Date.now() + 25 * hour,
  );
  const all = await get('/api/alerts');
  assert.deepEqual(
    (all.body as { alerts: { id: string; silencedBy: string[] }[] }).alerts.map((a) => [a.id, a.silencedBy]),
    [
      [alertId(4), [active]],
      [alertId(3), [active]],
      [alertId(2), []],
      [alertId(1), []],
    ],
  );
  assert.deepEqual(((await get(`/api/alerts/${alertId(3)}`)).body as { silencedBy: string[] }).silencedBy, [active]);
  await t.node.call('POST', `/api/silences/${active}/expire`, { token: user });
  assert.deepEqual(((await get(`/api/alerts/${alertId(3)}`)).body as { silencedBy: string[] }).silencedBy, []);
});

test('GET /api/alerts/groups: the list filters (severity, rule, field, text, silenced) narrow the groups', async () => {
  const groups = async (query: string) => {
    const res = await get(`/api/alerts/groups?${query}`);
    assert.equal(res.status, 200, res.text);
    return (res.body as { groups: unknown[] }).groups;
  };
  const group = (key: string, n: number[]) => ({
    key,
    count: n.length,
    firstSeen: 1_700_000_000_000 + Math.min(...n) * 1000,
    lastSeen: 1_700_000_000_000 + Math.max(...n) * 1000,
  });
  assert.deepEqual(await groups('by=rule&severity=high&severity=critical'), [
    group('failed-login', [2]),
    group('root-login', [3]),
  ]);
  assert.deepEqual(await groups('by=field:user&rule=root-login'), [group('alice', [4]), group('root', [3])]);
  assert.deepEqual(await groups('by=rule&field.user=alice'), [group('failed-login', [1]), group('root-login', [4])]);
  assert.deepEqual(await groups('by=field:user&q=n%3D2'), [group('bob', [2])]);
  assert.deepEqual(await groups('by=rule&technique=T1078&minSeverity=critical'), [group('root-login', [3])]);
  const hour = 3_600_000;
  const res = await t.node.call('POST', '/api/silences', {
    token: t.tokens.user,
    body: {
      matchers: [{ field: 'user', op: '=', value: 'alice' }],
      startsAt: Date.now() - hour,
      endsAt: Date.now() + hour,
      comment: 'groups test',
    },
  });
  assert.equal(res.status, 201, res.text);
  try {
    assert.deepEqual(await groups('by=rule&silenced=true'), [group('failed-login', [1]), group('root-login', [4])]);
    assert.deepEqual(await groups('by=rule&silenced=false'), [group('failed-login', [2]), group('root-login', [3])]);
  } finally {
    const id = (res.body as { id: string }).id;
    assert.equal((await t.node.call('POST', `/api/silences/${id}/expire`, { token: t.tokens.user })).status, 200);
  }
});

test('GET /api/alerts and /api/alerts/groups: a silenced that is not true or false is a 400 naming the parameter', async () => {
  for (const url of ['/api/alerts?silenced=maybe', '/api/alerts/groups?by=rule&silenced=maybe']) {
    const res = await get(url);
    assert.deepEqual(
      [res.status, res.body],
      [
        400,
        {
          status: 'BAD_REQUEST',
          message: 'Resource validation failed',
          debugMessage: "querystring.silenced must be true or false, found 'maybe'",
        },
      ],
      url,
    );
  }
});
