import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badRequest, notFound } from '@weir/test-helpers/error-bodies';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const t = useInProcessNode({ 'weir.backtest.max-events': '50' }, async () => {
  const { admin } = t.tokens;
  const rule = { id: 'fail', name: 'Fail', description: '', pdl: 'action="fail"', annotations: [], enabled: true };
  await t.node.call('POST', '/api/rules', { token: admin, body: rule });
  await t.node.call('PUT', '/api/rules/fail', {
    token: admin,
    body: { ...rule, pdl: 'action="fail" AND user="root"' },
  });
  const task = (id: number, rules: string[]) => ({
    id,
    name: `rules${id}`,
    description: '',
    function: 'APPLY_RULES',
    definition: { rules, matchAll: true },
  });
  for (const body of [task(1, ['fail']), task(2, ['any'])])
    assert.equal((await t.node.call('POST', '/api/tasks', { token: admin, body })).status, 201);
  await t.node.call('POST', '/api/rules', {
    token: admin,
    body: { ...rule, id: 'any', name: 'Any', pdl: 'action="fail" OR action="ok"' },
  });
  const pipeline = { id: 1, name: 'detect', description: '', tasks: [1] };
  assert.equal((await t.node.call('POST', '/api/pipelines', { token: admin, body: pipeline })).status, 201);
  // version 2 of the pipeline (in force): the task of rule `any`
  await t.node.call('PUT', '/api/pipelines/1', { token: admin, body: { ...pipeline, tasks: [2] } });
  await t.node.call('POST', '/api/topics', {
    token: admin,
    body: { name: 'logins', numberOfPartitions: 2, replicationFactor: 1 },
  });
});

const post = (body: unknown, token = t.tokens.user) => t.node.call('POST', '/api/backtests', { token, body });
const invalid = (detail: string) => badRequest(`The backtest request is not valid: ${detail}`);

async function settled(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const res = await t.node.call('GET', `/api/backtests/${id}`, { token: t.tokens.user });
    const body = res.body as { state: string };
    if (body.state !== 'queued' && body.state !== 'running') return body as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`backtest ${id} did not end`);
}

test('backtests are open to users (members); without a token 401, a bad one 403', async () => {
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/backtests', { adminOnly: false, body: {} });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/backtests', { adminOnly: false });
});

test('uploaded events, a candidate version against the rule in force: 202 + Location, then the result and the diff', async () => {
  const events = [
    { action: 'fail', user: 'root', _time: Date.UTC(2019, 0, 1) },
    { action: 'fail', user: 'bob', _time: Date.UTC(2019, 0, 2) },
    { action: 'ok', user: 'root', _time: Date.UTC(2019, 0, 3) },
  ];
  // version 1 (any user) is the candidate; version 2 (root only) is in force
  const res = await post({ candidate: { rules: [{ id: 'fail', version: 1 }] }, source: { events }, first: 5 });
  assert.equal(res.status, 202);
  const id = (res.body as { id: string }).id;
  assert.equal(res.headers.location, `/api/backtests/${id}`);
  const done = await settled(id);
  assert.equal(done.state, 'done');
  assert.equal(done.user, 'alice');
  assert.deepEqual(done.progress, { ...(done.progress as object), eventsRead: 3, share: 1 });
  const result = done.result as {
    events: number;
    rules: { id: string; alerts: number; first: { user: string; _alert: { id: string } }[] }[];
    diff: Record<string, { count: number; first: string[]; alerts: unknown[] }>;
  };
  assert.equal(result.events, 3);
  assert.deepEqual(
    result.rules.map((r) => [r.id, r.alerts, r.first.map((a) => a.user)]),
    [['fail', 2, ['root', 'bob']]],
  );
  const [root, bob] = result.rules[0]!.first;
  // each set's first ids with their alert records
  assert.deepEqual(result.diff, {
    onlyCandidate: { count: 1, first: [bob!._alert.id], alerts: [bob] },
    onlyCurrent: { count: 0, first: [], alerts: [] },
    both: { count: 1, first: [root!._alert.id], alerts: [root] },
  });
  // the admin sees it too; another user would not (404)
  assert.equal((await t.node.call('GET', `/api/backtests/${id}`, { token: t.tokens.admin })).status, 200);
  const list = await t.node.call('GET', '/api/backtests', { token: t.tokens.user });
  assert.ok((list.body as { id: string }[]).some((b) => b.id === id));
});

test('bad input: each refusal names the field and what is wrong', async () => {
  const rules = { rules: [{ id: 'fail', pdl: 'action="fail"' }] };
  const cases: [unknown, number, unknown][] = [
    [
      { candidate: rules, source: { topic: 'logins', from: '2021-03-14T10:00:00Z', to: '2021-03-14T09:00:00Z' } },
      400,
      invalid('source.to: the end 2021-03-14T09:00:00.000Z is before the start 2021-03-14T10:00:00.000Z (source.from)'),
    ],
    [
      { candidate: rules, source: { topic: 'nope', from: 0, to: 1 } },
      400,
      invalid("source.topic: topic 'nope' does not exist"),
    ],
    [
      { candidate: { rules: [{ id: 'fail', version: 7 }] }, source: { events: [] } },
      400,
      invalid("candidate.rules[0].version: Rule 'fail' has no version 7; it has versions 1 to 2."),
    ],
    [
      { candidate: { rules: [{ id: 'ghost', version: 1 }] }, source: { events: [] } },
      400,
      invalid(
        "candidate.rules[0].version: Rule 'ghost' has no versions: no rule with this id was changed since versions are kept.",
      ),
    ],
    [
      { candidate: rules, source: { topic: 'logins', offsets: { '0': [5, 2] } } },
      400,
      invalid('source.offsets.0: the end offset 2 is before the start offset 5'),
    ],
    [
      { candidate: rules, source: { topic: 'logins', offsets: { '3': [0, 1] } } },
      400,
      invalid("source.offsets.3: topic 'logins' has no partition 3; it has 2 (0 to 1)"),
    ],
    [
      { candidate: rules, source: { topic: 'logins', from: 'yesterday', to: 1 } },
      400,
      invalid(
        'source.from: "yesterday" is not a time: give ISO 8601 text (2021-03-14T09:00:00Z) or epoch milliseconds',
      ),
    ],
    [{ candidate: { rules: [{ id: 'x', pdl: 'action=' }] }, source: { events: [] } }, 400, undefined],
    [
      { candidate: rules, source: { events: Array.from({ length: 51 }, () => ({ a: 1 })) } },
      400,
      invalid('source.events: 51 events, more than the 50 a backtest may read (setting weir.backtest.max-events)'),
    ],
    [{ candidate: rules, source: { events: [1] } }, 400, invalid('source.events[0]: must be a JSON object (an event)')],
  ];
  for (const [body, status, expected] of cases) {
    const res = await post(body);
    assert.equal(res.status, status, JSON.stringify(body).slice(0, 200));
    if (expected !== undefined) assert.deepEqual(res.body, expected);
    else
      assert.match(
        (res.body as { debugMessage: string }).debugMessage,
        /^The backtest request is not valid: candidate\.rules\[0\]\.pdl: rule 'x' does not compile: /,
      );
  }
  const missing = await t.node.call('GET', '/api/backtests/nope', { token: t.tokens.user });
  assert.equal(missing.status, 404);
  assert.deepEqual(
    missing.body,
    notFound('No backtest nope; backtests are kept for an hour after they end, on the node that ran them.'),
  );
});

test('a pipeline version as candidate over uploaded events: its rules in force; the diff against the pipeline in force', async () => {
  const events = [
    { action: 'fail', user: 'root', _time: Date.UTC(2019, 0, 1) },
    { action: 'fail', user: 'bob', _time: Date.UTC(2019, 0, 2) },
    { action: 'ok', user: 'bob', _time: Date.UTC(2019, 0, 3) },
  ];
  // version 1 runs rule `fail` as in force (root only); the pipeline in force runs `any` (every event)
  const res = await post({ candidate: { pipeline: 1, version: 1 }, source: { events }, first: 5 });
  assert.equal(res.status, 202, res.text);
  const done = await settled((res.body as { id: string }).id);
  assert.equal(done.state, 'done', String(done.error));
  const result = done.result as {
    rules: { id: string; alerts: number; first: { user: string }[] }[];
    diff: Record<string, { count: number }>;
  };
  assert.deepEqual(
    result.rules.map((r) => [r.id, r.alerts, r.first.map((a) => a.user)]),
    [['fail', 1, ['root']]],
  );
  assert.deepEqual(Object.fromEntries(Object.entries(result.diff).map(([k, v]) => [k, v.count])), {
    onlyCandidate: 1,
    onlyCurrent: 3,
    both: 0,
  });
  // an inline pipeline: a filter (bob's events only), then the task in force: 2 alerts, both also in force
  const inline = await post({
    candidate: {
      pipeline: {
        id: 1,
        tasks: [{ id: 9, name: 'bob', function: 'FILTER', definition: { type: 'pdl', value: 'user="bob"' } }, 2],
      },
    },
    source: { events },
  });
  assert.equal(inline.status, 202, inline.text);
  const ran = await settled((inline.body as { id: string }).id);
  const counts = ran.result as typeof result;
  assert.deepEqual(
    counts.rules.map((r) => [r.id, r.alerts]),
    [['any', 2]],
  );
  assert.deepEqual(Object.fromEntries(Object.entries(counts.diff).map(([k, v]) => [k, v.count])), {
    onlyCandidate: 0,
    onlyCurrent: 1,
    both: 2,
  });
  // the audit trail names the candidate
  const audit = await t.node.call('GET', '/api/audit?kind=backtest', { token: t.tokens.admin });
  assert.match(JSON.stringify(audit.body), /pipeline 1 version 1 over 3 events/);
});

test('a pipeline or topology candidate that does not resolve: 400 naming the field', async () => {
  const events = { events: [] };
  const cases: [unknown, string][] = [
    [
      { pipeline: 9 },
      "candidate.pipeline: pipeline 9 does not exist (give version to backtest a deleted one's version)",
    ],
    [{ pipeline: 1, version: 5 }, "candidate.version: Pipeline '1' has no version 5; it has versions 1 to 2."],
    [{ pipeline: 'detect' }, 'candidate.pipeline: "detect" is not a pipeline id (a whole number)'],
    [
      { topology: 3 },
      "candidate.topology: topology 3 does not exist (give version to backtest a deleted one's version)",
    ],
    [
      { topology: 3, version: 1 },
      "candidate.version: Topology '3' has no versions: no topology with this id was changed since versions are kept.",
    ],
    [{ topology: 3, pipeline: 1 }, 'candidate: gives pipeline and topology; give one'],
    [{ pipeline: 1, rules: [] }, 'candidate: gives rules and pipeline; give one'],
    [{ pipeline: 1, from: 2 }, 'candidate.from: is not a field of a pipeline candidate (accepted: pipeline, version)'],
    [{ pipeline: { tasks: [1, 77] } }, 'candidate.pipeline.tasks[1]: task 77 does not exist'],
  ];
  for (const [candidate, detail] of cases) {
    const res = await post({ candidate, source: events });
    assert.deepEqual([res.status, res.body], [400, invalid(detail)], JSON.stringify(candidate));
  }
});
