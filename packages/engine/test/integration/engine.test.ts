import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isolatedEngine, post, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { consume, createTopics, json, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { useTestNode } from '@weir/test-helpers/test-node';

describe('the stream engine: the quick-start scenario', () => {
  let token: string;
  const settings = isolatedEngine('quick');
  const input = uniqueTopic('in');
  const output = uniqueTopic('out');
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;

  const t = useTestNode(settings, async () => {
    token = await t.initAdmin();
    await createTopics([input, output]);
  });

  test('the engine reaches RUNNING with no topology', async () => {
    await waitForRunning(t, token);
  });

  test('parse, tag with an eval, two rules: alerts with _rule on the output topic and on the alerts topic', async () => {
    await post(t, token, '/api/rules', {
      id: 'failed-login',
      name: 'Failed login',
      description: '',
      pdl: 'action="login" AND status="failed"',
      annotations: ['T1110'],
      enabled: true,
    });
    await post(t, token, '/api/rules', {
      id: 'root-user',
      name: 'Root user',
      description: '',
      pdl: 'user="root"',
      annotations: [],
      enabled: true,
    });
    await post(t, token, '/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: {} });
    await post(t, token, '/api/tasks', {
      id: 2,
      name: 'tag',
      description: '',
      function: 'EVAL',
      definition: { eval: [{ condition: 'user IN ["alice", "root"]', action: 'set', field: 'team', value: '"blue"' }] },
    });
    await post(t, token, '/api/tasks', {
      id: 3,
      name: 'rules',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['failed-login', 'root-user'] },
    });
    await post(t, token, '/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1, 2, 3] });
    await post(t, token, '/api/topologies', {
      id: 1,
      name: 'auth',
      description: '',
      pipelines: [1],
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: output }],
    });
    await produce(input, [
      'user=alice action=login status=failed',
      'user=root action=login status=ok',
      'user=bob action=login status=ok',
    ]);
    const alerts = (await consume(output, 2, 30_000)).map(json);
    assert.equal(alerts.length, 2);
    const byRule = new Map(alerts.map((a) => [(a._rule as { id: string }).id, a]));
    assert.deepEqual(byRule.get('failed-login')!._rule, {
      id: 'failed-login',
      name: 'Failed login',
      annotations: ['T1110'],
    });
    assert.equal(byRule.get('failed-login')!.user, 'alice');
    assert.equal(byRule.get('failed-login')!.team, 'blue');
    assert.equal(byRule.get('failed-login')!._raw, 'user=alice action=login status=failed');
    assert.equal(typeof byRule.get('failed-login')!._time, 'number');
    assert.deepEqual(byRule.get('root-user')!._rule, { id: 'root-user', name: 'Root user', annotations: [] });
    const fromAlerts = (await consume(alertsTopic, 2, 30_000)).map(json);
    assert.deepEqual(fromAlerts.map((a) => (a._rule as { id: string }).id).sort(), ['failed-login', 'root-user']);
  });

  test('engine state, stop, repeated stop, start, and start while running (spec texts)', async () => {
    await waitForRunning(t, token);
    const running = await t.call('POST', '/api/engine/start', { token });
    assert.equal(running.status, 400);
    assert.deepEqual(running.body, {
      status: 'BAD_REQUEST',
      message: 'Resource validation failed',
      debugMessage: 'Unable to start engine, please stop it properly. Current state is RUNNING',
    });
    const stop = await t.call('POST', '/api/engine/stop', { token });
    assert.equal(stop.status, 200);
    assert.deepEqual(stop.body, { states: ['NOT_RUNNING'] });
    assert.deepEqual((await t.call('POST', '/api/engine/stop', { token })).body, { states: ['NOT_RUNNING'] });
    assert.deepEqual((await t.call('GET', '/api/engine/state', { token })).body, { states: ['NOT_RUNNING'] });
    const start = await t.call('POST', '/api/engine/start', { token });
    assert.equal(start.status, 200);
    assert.deepEqual(start.body, { states: ['REBALANCING'] });
    await waitForRunning(t, token);
  });

  test('records produced while the engine was stopped are processed after start (nothing lost)', async () => {
    await t.call('POST', '/api/engine/stop', { token });
    await produce(input, ['user=root action=sudo status=ok']);
    await t.call('POST', '/api/engine/start', { token });
    const alerts = await waitFor(
      'the new alert',
      async () => {
        const all = (await consume(output, 3, 10_000)).map(json);
        return all.length >= 3 ? all : undefined;
      },
      40_000,
    );
    assert.equal(alerts[2]!.action, 'sudo');
  });
});
