import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest, notFound, schemaError } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode({}, async () => {
  const res = await t.node.call('POST', '/api/rules', {
    token: t.tokens.admin,
    body: {
      id: 'root',
      name: 'Root',
      description: '',
      pdl: 'user="root" AND port > 1000',
      annotations: [],
      enabled: true,
    },
  });
  assert.equal(res.status, 201, res.text);
});

const post = (body: unknown) => t.node.call('POST', '/api/explain/pdl', { token: t.tokens.user, body });

test('POST /api/explain/pdl refuses callers without a token (a user may call it)', async () => {
  await assertRefusals(t.node, t.tokens.user, 'POST', '/api/explain/pdl', { adminOnly: false, body: {} });
});

test('a stored rule on one event: the tree with a truth value per node and the values seen', async () => {
  const res = await post({ ruleId: 'root', event: { user: 'root', port: 80 } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, {
    matched: false,
    outputs: [],
    events: [
      {
        index: 0,
        stoppedAt: 0,
        outputs: 0,
        stages: [
          {
            stage: 0,
            kind: 'QueryStage',
            pdl: 'user = "root" AND port > 1000',
            passed: false,
            condition: {
              kind: 'And',
              pdl: 'user = "root" AND port > 1000',
              line: 1,
              column: 1,
              result: false,
              operands: [
                {
                  kind: 'Comparison',
                  pdl: 'user = "root"',
                  line: 1,
                  column: 1,
                  result: true,
                  fields: [{ field: 'user', present: true, value: 'root' }],
                },
                {
                  kind: 'Comparison',
                  pdl: 'port > 1000',
                  line: 1,
                  column: 17,
                  result: false,
                  fields: [{ field: 'port', present: true, value: 80 }],
                },
              ],
            },
          },
        ],
      },
    ],
  });
});

test('PDL text on a sample: a correlation’s group, window, count and the emission', async () => {
  const res = await post({
    pdl: 'event_count timespan=1m group_by host where _aggregation.value >= 2',
    events: [
      { host: 'h1', _time: 1000 },
      { host: 'h1', _time: 2000 },
    ],
  });
  assert.equal(res.status, 200, res.text);
  const body = res.body as {
    matched: boolean;
    events: { stages: Record<string, unknown>[] }[];
    correlation: { emissions: { group: unknown; atEvent: number }[] };
  };
  assert.equal(body.matched, true);
  const [first, second] = body.events.map((e) => e.stages[0]);
  assert.deepEqual(
    [first?.group, first?.window, first?.state, first?.fired],
    [
      { key: '["h1"]', values: { host: 'h1' } },
      { start: -59000, end: 1000 },
      { function: 'event_count', eventCount: 1, value: 1 },
      false,
    ],
  );
  assert.deepEqual([second?.state, second?.fired], [{ function: 'event_count', eventCount: 2, value: 2 }, true]);
  assert.deepEqual(
    body.correlation.emissions.map((e) => [e.group, e.atEvent]),
    [[{ key: '["h1"]', values: { host: 'h1' } }, 1]],
  );
});

test('bad input: 400 naming the field; a PDL syntax error with its line and column; a missing rule: 404', async () => {
  const cases: [unknown, number, unknown][] = [
    [{ event: {} }, 400, badRequest('Send exactly one of pdl (the rule as PDL text) and ruleId (a stored rule).')],
    [
      { pdl: 'a = 1', ruleId: 'root', event: {} },
      400,
      badRequest('Send exactly one of pdl (the rule as PDL text) and ruleId (a stored rule).'),
    ],
    [
      { pdl: 'a = 1' },
      400,
      badRequest('Send exactly one of event (a JSON event) and events (an array of events fed in order).'),
    ],
    [
      { pdl: 'a = 1', event: {}, events: [] },
      400,
      badRequest('Send exactly one of event (a JSON event) and events (an array of events fed in order).'),
    ],
    [
      { pdl: 'a = ', event: {} },
      400,
      badRequest("The PDL does not compile: line 1, column 5: expected a value after '=', found end of input"),
    ],
    [{ ruleId: 'nope', event: {} }, 404, notFound('Requested rule does not exist')],
  ];
  for (const [body, status, answer] of cases) {
    const res = await post(body);
    assert.deepEqual([res.status, res.body], [status, answer], JSON.stringify(body));
  }
  const typed = await post({ pdl: 'a = 1', events: {} });
  assert.equal(typed.status, 400);
  assert.deepEqual(typed.body, schemaError((typed.body as { debugMessage: string }).debugMessage));
  assert.match((typed.body as { debugMessage: string }).debugMessage, /events/);
  const unknown = await post({ pdl: 'a = 1', event: {}, evnt: {} });
  assert.equal(unknown.status, 400);
  assert.match((unknown.body as { debugMessage: string }).debugMessage, /evnt/);
});
