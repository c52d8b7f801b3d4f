import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serdeConfiguration } from '@weir/contract';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';
import { badRequest } from '@weir/test-helpers/error-bodies';

const t = useInProcessNode();

test('live routes refuse callers without a token', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/metrics/summary', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/topics/x/tail', { adminOnly: false });
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/alerts/tail', { adminOnly: false });
});

test('GET /api/metrics/summary: the node, the time and empty rows before the engine ran', async () => {
  const res = await t.node.call('GET', '/api/metrics/summary', { token: t.tokens.user });
  assert.equal(res.status, 200);
  const body = res.body as { time: number };
  assert.ok(Math.abs(body.time - Date.now()) < 60_000, `time ${body.time}`);
  assert.deepEqual(
    { ...body, time: 0 },
    {
      node: t.node.context.uuid,
      time: 0,
      workers: [],
      recordsIn: [],
      recordsOut: [],
      deadLettered: [],
      alerts: [],
      ruleMatches: [],
      ruleSuppressed: [],
      lag: [],
    },
  );
});

test('GET /api/topics/:name/tail: server-sent events, open, the messages from the earliest offset, end', async () => {
  const { admin, user } = t.tokens;
  await t.node.call('POST', '/api/topics', {
    token: admin,
    body: { name: 'tailed', numberOfPartitions: 1, replicationFactor: 1 },
  });
  await t.node.call('POST', '/api/topics/tailed/produce', {
    token: admin,
    body: { messages: [{ key: 'k', value: '{"a":1}' }] },
  });
  const res = await t.node.call('GET', '/api/topics/tailed/tail?offset=earliest&maxSeconds=1', { token: user });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
  const text = res.text.replace(/"timestamp":\d+/g, '"timestamp":0');
  assert.equal(
    text,
    'event: open\ndata: {"topic":"tailed","start":{"kind":"earliest"}}\n\n' +
      'event: message\ndata: {"key":"k","value":"{\\"a\\":1}","partition":0,"offset":0,"timestamp":0}\n\n' +
      'event: end\ndata: {"reason":"maxSeconds reached"}\n\n',
  );
});

test('tails: a missing topic is 404; bad query parameters are 400 naming them', async () => {
  const { user } = t.tokens;
  const missing = await t.node.call('GET', '/api/topics/nope/tail', { token: user });
  assert.deepEqual(
    [missing.status, missing.body],
    [
      404,
      {
        status: 'NOT_FOUND',
        message: 'Resource not found',
        debugMessage: 'Kafka topic does not exist, can not write a message.',
      },
    ],
  );
  const alerts = await t.node.call('GET', '/api/alerts/tail', { token: user });
  assert.equal(alerts.status, 404, 'the alerts topic is not created in the unit node');
  const offset = await t.node.call('GET', '/api/topics/tailed/tail?offset=middle', { token: user });
  assert.deepEqual(
    [offset.status, offset.body],
    [400, badRequest("querystring.offset must be earliest or latest, found 'middle'")],
  );
  const seconds = await t.node.call('GET', '/api/topics/tailed/tail?maxSeconds=soon', { token: user });
  assert.deepEqual(
    [seconds.status, seconds.body],
    [400, badRequest("querystring.maxSeconds must be an integer >= 0, found 'soon'")],
  );
  const partition = await t.node.call('GET', '/api/topics/tailed/tail?partition=-1', { token: user });
  assert.deepEqual(
    [partition.status, partition.body],
    [400, badRequest("querystring.partition must be an integer >= 0, found '-1'")],
  );
  const serde = await t.node.call('GET', '/api/alerts/tail?keyDeserializer=Long', { token: user });
  assert.deepEqual(
    [serde.status, serde.body],
    [
      400,
      badRequest(
        `querystring.keyDeserializer must be one of ${serdeConfiguration.deserializer.join(', ')}, found 'Long'`,
      ),
    ],
  );
  const both = await t.node.call('GET', '/api/topics/tailed/tail?startOffset=1&startTimestamp=2', { token: user });
  assert.deepEqual(
    [both.status, both.body],
    [
      400,
      badRequest(
        'querystring: give at most one of offset, startOffset and startTimestamp (found startOffset, startTimestamp)',
      ),
    ],
  );
});

const original = useInProcessNode({ 'weir.output.names': 'original' });

test("GET /api/alerts/tail tails the topic the engine writes alerts to: the original's padas_alerts with weir.output.names=original", async () => {
  const { admin, user } = original.tokens;
  await original.node.call('POST', '/api/topics', {
    token: admin,
    body: { name: 'padas_alerts', numberOfPartitions: 1, replicationFactor: 1 },
  });
  const res = await original.node.call('GET', '/api/alerts/tail?maxSeconds=1', { token: user });
  assert.equal(res.status, 200);
  assert.equal(
    res.text,
    'event: open\ndata: {"topic":"padas_alerts","start":{"kind":"latest"}}\n\n' +
      'event: end\ndata: {"reason":"maxSeconds reached"}\n\n',
  );
});
