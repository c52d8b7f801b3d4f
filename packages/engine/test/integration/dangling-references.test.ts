import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { post } from '@weir/test-helpers/engine';
import { multipartBody } from '@weir/test-helpers/multipart';
import { useTestNode } from '@weir/test-helpers/test-node';
import { uniqueTopicPrefix } from '@weir/test-helpers/unique';

/**
 * References to what does not exist (issue 23, "Authoring"): the API accepts them as the original
 * product did; the task and pipeline tests name the rules APPLY_RULES skips, and
 * GET /api/diagnostics/references lists every dangling reference. Over real HTTPS, real broker.
 */
type Json = Record<string, unknown>;

describe('dangling references', () => {
  let admin: string;
  let user: string;
  const existing = `${uniqueTopicPrefix('refs')}_in`;
  const gone = `${uniqueTopicPrefix('refs')}_never_created`;
  const upload = (id: string) => {
    const file = { name: 'file', value: 'ip,owner\n10.0.0.1,ada\n', filename: 'assets.csv', contentType: 'text/csv' };
    const { body, contentType } = multipartBody([{ name: 'id', value: id }, file]);
    return t.call('POST', '/api/lookups', { token: admin, body, contentType });
  };
  const t = useTestNode({ 'weir.engine.autostart': 'false' }, async () => {
    admin = await t.initAdmin();
    user = await t.createUser(admin, 'rita');
    const topic = await t.call('POST', '/api/topics', {
      token: admin,
      body: { name: existing, numberOfPartitions: 1, replicationFactor: 1 },
    });
    assert.equal(topic.status, 201, topic.text);
    assert.equal((await upload('assets')).status, 201);
    const rule = (id: string, pdl: string, enabled = true) => ({
      id,
      name: id,
      description: '',
      pdl,
      annotations: [],
      enabled,
    });
    await post(t, admin, '/api/rules', rule('failed-logon', 'action="login" AND status="failed"'));
    await post(t, admin, '/api/rules', rule('off', 'action="login"', false));
    await post(t, admin, '/api/rules', rule('owned', 'lookup assets ip OUTPUT owner'));
    // Accepted although `failed` names no rule (the original product accepted it): the console's autocomplete trap.
    await post(t, admin, '/api/tasks', {
      id: 1,
      name: 'detect',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['failed-logon', 'failed', 'off'] },
    });
    await post(t, admin, '/api/tasks', { id: 2, name: 'kv', description: '', function: 'PARSE_KV', definition: {} });
    await post(t, admin, '/api/tasks', {
      id: 3,
      name: 'enrich',
      description: '',
      function: 'PDL_EXPRESSION',
      definition: { pdl: 'lookup assets ip OUTPUT owner' },
    });
    await post(t, admin, '/api/pipelines', { id: 1, name: 'main', description: '', tasks: [2, 1] });
    await post(t, admin, '/api/pipelines', { id: 2, name: 'half', description: '', tasks: [3, 8] });
    const topology = (id: number, input: string, pipelines: number[]) => ({
      id,
      name: `topo-${id}`,
      description: '',
      pipelines,
      enabled: true,
      group: 'default',
      input: { name: input },
      output: [{ name: `${input}_out` }],
    });
    await post(t, admin, '/api/topologies', topology(1, existing, [1]));
    await post(t, admin, '/api/topologies', topology(2, gone, [1, 2, 5]));
  });

  test('the task test names the rules APPLY_RULES skips: missing ("rule `failed` does not exist") and disabled', async () => {
    const res = await t.call('POST', '/api/test/tasks/1', {
      token: user,
      body: '{"action":"login","status":"failed","user":"bob"}',
      contentType: 'text/plain',
    });
    assert.equal(res.status, 200, res.text);
    const { result, warnings } = res.body as Json;
    assert.deepEqual(Object.keys(res.body as Json), ['result', 'warnings']);
    assert.equal(((result as Json)._rule as Json).id, 'failed-logon');
    assert.deepEqual(warnings, ['rule `failed` does not exist', 'rule `off` is disabled']);
    // no match: the warnings say why a detection may be missing instead of a bare null
    const none = await t.call('POST', '/api/test/tasks/1', {
      token: user,
      body: '{"action":"read"}',
      contentType: 'text/plain',
    });
    assert.deepEqual(none.body, { result: null, warnings: ['rule `failed` does not exist', 'rule `off` is disabled'] });
  });

  test('the pipeline test names them with their task; a task without APPLY_RULES gives no warnings', async () => {
    const res = await t.call('POST', '/api/test/pipelines/1', {
      token: user,
      body: 'action=read',
      contentType: 'text/plain',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      result: null,
      warnings: ['task detect: rule `failed` does not exist', 'task detect: rule `off` is disabled'],
    });
    const kv = await t.call('POST', '/api/test/tasks/2', { token: user, body: 'a=1', contentType: 'text/plain' });
    assert.deepEqual(Object.keys(kv.body as Json), ['result']);
  });

  test('GET /api/diagnostics/references lists every dangling reference; any member may read it', async () => {
    // the lookup goes away after the task and rule that use it were saved
    assert.equal((await t.call('DELETE', '/api/lookups/assets', { token: admin })).status, 204);
    const res = await t.call('GET', '/api/diagnostics/references', { token: user });
    assert.equal(res.status, 200, res.text);
    const topo2 = { kind: 'topology', id: 2, name: 'topo-2' };
    assert.deepEqual(res.body, {
      count: 6,
      topicsChecked: true,
      references: [
        {
          from: topo2,
          to: { kind: 'topic', id: gone },
          field: 'input.name',
          message: `topology 2 (topo-2) reads topic \`${gone}\`, which does not exist`,
        },
        {
          from: topo2,
          to: { kind: 'pipeline', id: 5 },
          field: 'pipelines[2]',
          message: 'topology 2 (topo-2) runs pipeline 5, which does not exist',
        },
        {
          from: { kind: 'pipeline', id: 2, name: 'half' },
          to: { kind: 'task', id: 8 },
          field: 'tasks[1]',
          message: 'pipeline 2 (half) runs task 8, which does not exist',
        },
        {
          from: { kind: 'task', id: 1, name: 'detect' },
          to: { kind: 'rule', id: 'failed' },
          field: 'definition.rules[1]',
          message: 'task 1 (detect) applies rule `failed`, which does not exist',
        },
        {
          from: { kind: 'task', id: 3, name: 'enrich' },
          to: { kind: 'lookup', id: 'assets' },
          field: 'definition',
          message: 'task 3 (enrich) uses lookup `assets`, which does not exist',
        },
        {
          from: { kind: 'rule', id: 'owned', name: 'owned' },
          to: { kind: 'lookup', id: 'assets' },
          field: 'pdl',
          message: 'rule `owned` uses lookup `assets`, which does not exist',
        },
      ],
    });
    assert.equal((await t.call('GET', '/api/diagnostics/references')).status, 401);
    // fixed: the lookup is back, the references to it are gone
    assert.equal((await upload('assets')).status, 201);
    const after = (await t.call('GET', '/api/diagnostics/references', { token: admin })).body as Json;
    assert.equal(after.count, 4);
  });
});
