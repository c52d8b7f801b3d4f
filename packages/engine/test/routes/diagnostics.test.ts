import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertRefusals, useInProcessNode } from '../helpers/in-process-node.ts';

const binding = (name: string) => ({
  name,
  keySerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
  valueSerde: 'org.apache.kafka.common.serialization.Serdes$StringSerde',
});

const t = useInProcessNode({}, async () => {
  const token = t.tokens.admin;
  const stored = async (path: string, body: unknown) => {
    const r = await t.node.call('POST', path, { token, body });
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  };
  await stored('/api/topics', { name: 'events', numberOfPartitions: 1, replicationFactor: 1 });
  await stored('/api/rules', { id: 'failed-logon', name: 'Failed logon', pdl: 'action="failed"' });
  await stored('/api/tasks', {
    id: 1,
    name: 'detect',
    function: 'APPLY_RULES',
    definition: { rules: ['failed-logon', 'failed'] },
  });
  await stored('/api/pipelines', { id: 1, name: 'main', tasks: [1, 2] });
  await stored('/api/topologies', {
    id: 1,
    name: 'logons',
    pipelines: [1],
    enabled: true,
    group: 'default',
    input: binding('events'),
    output: [binding('alerts-out')],
  });
  await stored('/api/topologies', {
    id: 2,
    name: 'gone',
    pipelines: [1, 9],
    enabled: true,
    group: 'default',
    input: binding('no-such-topic'),
    output: [binding('alerts-out')],
  });
});

test('GET /api/diagnostics/references refuses callers without a valid token; users may read it', async () => {
  await assertRefusals(t.node, t.tokens.user, 'GET', '/api/diagnostics/references', { adminOnly: false });
  const asUser = await t.node.call('GET', '/api/diagnostics/references', { token: t.tokens.user });
  assert.equal(asUser.status, 200);
});

test('GET /api/diagnostics/references lists every dangling reference with where it is', async () => {
  const r = await t.node.call('GET', '/api/diagnostics/references', { token: t.tokens.admin });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    count: 4,
    topicsChecked: true,
    references: [
      {
        from: { kind: 'topology', id: 2, name: 'gone' },
        to: { kind: 'topic', id: 'no-such-topic' },
        field: 'input.name',
        message: 'topology 2 (gone) reads topic `no-such-topic`, which does not exist',
      },
      {
        from: { kind: 'topology', id: 2, name: 'gone' },
        to: { kind: 'pipeline', id: 9 },
        field: 'pipelines[1]',
        message: 'topology 2 (gone) runs pipeline 9, which does not exist',
      },
      {
        from: { kind: 'pipeline', id: 1, name: 'main' },
        to: { kind: 'task', id: 2 },
        field: 'tasks[1]',
        message: 'pipeline 1 (main) runs task 2, which does not exist',
      },
      {
        from: { kind: 'task', id: 1, name: 'detect' },
        to: { kind: 'rule', id: 'failed' },
        field: 'definition.rules[1]',
        message: 'task 1 (detect) applies rule `failed`, which does not exist',
      },
    ],
  });
});

test('with Kafka unreachable, the configuration is still checked and the answer says topics were not', async () => {
  t.node.topics.unreachable = true;
  try {
    const r = await t.node.call('GET', '/api/diagnostics/references', { token: t.tokens.admin });
    assert.equal(r.status, 200);
    const body = r.body as { count: number; topicsChecked: boolean; topicsError: string; references: unknown[] };
    assert.equal(body.topicsChecked, false);
    assert.match(body.topicsError, /^topics not checked: Kafka at in-memory:9092 did not answer \(.+\)$/);
    assert.equal(body.count, 3);
    assert.equal(body.references.length, 3);
  } finally {
    t.node.topics.unreachable = false;
  }
});
