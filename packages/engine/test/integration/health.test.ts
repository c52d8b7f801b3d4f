import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freePort } from '../../src/broker/ports.ts';
import { isolatedEngine, post, waitFor } from '@weir/test-helpers/engine';
import { consumeUntil, createTopics, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { startTestNode } from '@weir/test-helpers/test-node';

test('health: live and ready answer without a token; ready turns 503 while the node stops', async () => {
  const t = await startTestNode(isolatedEngine('health'));
  let stopped = false;
  try {
    const live = await t.call('GET', '/health/live');
    assert.equal(live.status, 200);
    assert.deepEqual(live.body, { status: 'UP' });
    assert.equal(live.headers['strict-transport-security'] !== undefined, true, 'the fixed headers are sent');
    const token = await t.initAdmin();
    await waitFor(
      'a running engine',
      async () =>
        ((await t.call('GET', '/api/engine/state', { token })).body as { states: string[] }).states[0] === 'RUNNING',
    );
    const ready = await t.call('GET', '/health/ready');
    assert.equal(ready.status, 200, ready.text);
    assert.deepEqual(ready.body, { status: 'UP', checks: { store: 'UP', kafka: 'UP', engine: 'RUNNING' } });
    const stopping = t.node.stop();
    const during = await t.call('GET', '/health/ready');
    assert.equal(during.status, 503);
    assert.equal((during.body as { status: string }).status, 'DOWN');
    await stopping;
    stopped = true;
  } finally {
    if (!stopped) await t.node.stop();
    await t.stop().catch(() => {});
  }
});

test('health: ready is 503 naming Kafka when the cluster does not answer; live stays 200', async () => {
  const port = await freePort();
  const t = await startTestNode({ 'bootstrap.servers': `127.0.0.1:${port}`, 'weir.engine.autostart': 'false' });
  try {
    assert.equal((await t.call('GET', '/health/live')).status, 200);
    const ready = await t.call('GET', '/health/ready');
    assert.equal(ready.status, 503);
    const body = ready.body as { status: string; checks: { kafka: string; store: string } };
    assert.equal(body.status, 'DOWN');
    assert.equal(body.checks.store, 'UP');
    assert.match(body.checks.kafka, /^DOWN: /);
  } finally {
    await t.stop();
  }
});

test('graceful stop: the batch in flight is written and committed, so a restart neither loses nor repeats a record', async () => {
  const settings = isolatedEngine('graceful');
  const input = uniqueTopic('graceful-in');
  const output = uniqueTopic('graceful-out');
  await createTopics([input, output]);
  const t = await startTestNode({ ...settings, 'processing.guarantee': 'at_least_once' });
  try {
    const token = await t.initAdmin();
    await post(t, token, '/api/tasks', { id: 1, name: 'kv', description: '', function: 'PARSE_KV', definition: {} });
    await post(t, token, '/api/pipelines', { id: 1, name: 'p', description: '', tasks: [1] });
    await post(t, token, '/api/topologies', {
      id: 1,
      name: 'g',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    await produce(input, ['n=warmup']);
    await consumeUntil(output, (r) => r.length >= 1, 60_000, false, 0);
    const total = 60_000;
    await produce(
      input,
      Array.from({ length: total }, (_, i) => `n=${i}`),
    );
    await waitFor(
      'the first outputs of the burst',
      async () => (await consumeUntil(output, (r) => r.length >= 2, 5000, false, 0)).length >= 2,
      60_000,
    );
    await t.restart();
    const records = await consumeUntil(output, (r) => r.length >= total + 1, 120_000, false, 3000);
    const values = records.map((m) => (JSON.parse(m.value.toString()) as { n: string }).n);
    assert.equal(new Set(values).size, total + 1, 'every record is in the output');
    assert.equal(values.length, total + 1, 'no record was written twice');
  } finally {
    await t.stop();
  }
});
