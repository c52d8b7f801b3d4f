import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isolatedEngine, post, waitForRunning } from '@weir/test-helpers/engine';
import { consume, consumeUntil, createTopics, json, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

/**
 * `weir.output.names=original`: alerts carry the original's `padasRule` (id, name, description,
 * pdl, annotations, datamodel), correlations `padasAggregation`, and alerts go to `padas_alerts`,
 * so the original's consumers (SIEM searches, dashboards) read them unchanged.
 */
describe("the original's output names (weir.output.names=original)", () => {
  let t: TestNode;
  let token: string;
  const input = uniqueTopic('orig-in');
  const output = uniqueTopic('orig-out');

  before(async () => {
    t = await startTestNode({ ...isolatedEngine('orig-names'), 'weir.output.names': 'original' });
    token = await t.initAdmin();
    await createTopics([input, output]);
  });
  after(() => t.stop());

  test('padasRule with every field, padasAggregation, and the padas_alerts topic', async () => {
    await post(t, token, '/api/rules', {
      id: 1,
      name: 'Failure',
      description: 'Match when action is failure',
      pdl: 'action=\\"failure\\"',
      annotations: ['T9876'],
      enabled: true,
      datamodel: 'auth',
    });
    await post(t, token, '/api/rules', {
      id: 'burst',
      name: 'Burst',
      pdl: 'action="failure" | event_count timespan=1m group_by user where padasAggregation.eventCount > 1',
    });
    await post(t, token, '/api/tasks', {
      id: 1,
      name: 'rules',
      function: 'APPLY_RULES',
      definition: { rules: [1, 'burst'] },
    });
    await post(t, token, '/api/pipelines', { id: 1, name: 'p', tasks: [1] });
    await post(t, token, '/api/topologies', {
      id: 1,
      name: 't',
      pipelines: [1],
      input: { name: input },
      output: [{ name: output }],
    });
    await waitForRunning(t, token);
    await produce(input, [
      JSON.stringify({ user: 'bob', action: 'failure' }),
      JSON.stringify({ user: 'bob', action: 'failure' }),
    ]);
    const records = (await consume(output, 3, 30_000)).map(json);
    assert.equal(records.length, 3);
    const plain = records.filter((r) => (r.padasRule as { id: string }).id === '1');
    assert.equal(plain.length, 2);
    assert.deepEqual(plain[0]!.padasRule, {
      id: '1',
      name: 'Failure',
      description: 'Match when action is failure',
      pdl: 'action=\\"failure\\"',
      annotations: ['T9876'],
      datamodel: 'auth',
    });
    assert.ok(records.every((r) => !('_rule' in r)));
    const burst = records.find((r) => (r.padasRule as { id: string }).id === 'burst')!;
    assert.deepEqual(burst.padasAggregation, { groupBy: { user: 'bob' }, result: { user: { bob: 2 } }, eventCount: 2 });
    assert.deepEqual(burst.padasRule, {
      id: 'burst',
      name: 'Burst',
      description: '',
      pdl: 'action="failure" | event_count timespan=1m group_by user where padasAggregation.eventCount > 1',
      annotations: [],
      datamodel: '',
    });
    const alerts = (await consume('padas_alerts', 3, 30_000)).map(json);
    assert.deepEqual(alerts.map((a) => (a.padasRule as { id: string }).id).sort(), ['1', '1', 'burst']);
  });
});

/**
 * An emit=close correlation rule whose window the idle close ends (weir.stream.idle-close-seconds,
 * no later event): its alert, made on the stage's partition, carries the original's names too.
 */
describe("the original's output names on idle-closed correlation windows", () => {
  let t: TestNode;
  let token: string;
  const input = uniqueTopic('orig-idle-in');
  const output = uniqueTopic('orig-idle-out');
  const ruleId = `quiet-${Date.now()}`;

  before(async () => {
    t = await startTestNode({
      ...isolatedEngine('orig-idle'),
      'weir.output.names': 'original',
      'weir.stream.idle-close-seconds': '1',
    });
    token = await t.initAdmin();
    await createTopics([input, output]);
  });
  after(() => t.stop());

  test('the window closed by the idle close gives padasRule and padasAggregation, on padas_alerts', async () => {
    const pdl = 'action="failure" | event_count timespan=2s group_by user emit=close';
    await post(t, token, '/api/rules', {
      id: ruleId,
      name: 'Quiet',
      description: 'two failures then silence',
      pdl,
      annotations: ['T1110'],
      datamodel: 'auth',
    });
    await post(t, token, '/api/tasks', {
      id: 1,
      name: 'rules',
      function: 'APPLY_RULES',
      definition: { rules: [ruleId] },
    });
    await post(t, token, '/api/pipelines', { id: 1, name: 'p', tasks: [1] });
    await post(t, token, '/api/topologies', {
      id: 1,
      name: 't',
      pipelines: [1],
      input: { name: input },
      output: [{ name: output }],
    });
    await waitForRunning(t, token);
    await produce(input, [
      JSON.stringify({ user: 'ann', action: 'failure' }),
      JSON.stringify({ user: 'ann', action: 'failure' }),
    ]);
    // no later event: only the idle close can end the window
    const [alert] = (await consume(output, 1, 60_000)).map(json);
    assert.ok(alert, 'an alert from the idle-closed window');
    assert.deepEqual(alert.padasRule, {
      id: ruleId,
      name: 'Quiet',
      description: 'two failures then silence',
      pdl,
      annotations: ['T1110'],
      datamodel: 'auth',
    });
    assert.deepEqual(alert.padasAggregation, { groupBy: { user: 'ann' }, result: { user: { ann: 2 } }, eventCount: 2 });
    assert.ok(!('_rule' in alert) && !('_aggregation' in alert));
    const ours = (r: Record<string, unknown>) => (r.padasRule as { id?: string } | undefined)?.id === ruleId;
    const alerts = (await consumeUntil('padas_alerts', (rs) => rs.map(json).some(ours), 30_000)).map(json).filter(ours);
    assert.equal(alerts.length, 1);
    assert.deepEqual(alerts[0], alert);
  });
});
