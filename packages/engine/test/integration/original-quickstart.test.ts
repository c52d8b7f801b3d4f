import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { isolatedEngine, waitFor, waitForRunning } from '@weir/test-helpers/engine';
import { produce } from '@weir/test-helpers/kafka';
import { startTestNode, testBootstrap, type TestNode } from '@weir/test-helpers/test-node';

const quickstart = path.resolve(import.meta.dirname, '../fixtures/original/quickstart');
const bytes = (file: string) => readFileSync(path.join(quickstart, file));

/** The topic bodies of the original's `create_topics.yml` (a YAML block scalar: the text below, newline-terminated). */
const topicBody = (name: string) =>
  `{\n  "name": "${name}",\n  "numberOfPartitions": 1,\n  "replicationFactor": 1,\n  "options": {\n    "cleanup.policy": "delete"\n  }\n}\n`;

/** Reads a topic from the start with kcat (a Kafka client that is not Weir's) until `count` records came or the wait ends. */
async function kcat(topic: string, count: number): Promise<Record<string, unknown>[]> {
  const { stdout } = await promisify(execFile)(
    'kcat',
    ['-b', testBootstrap(), '-C', '-t', topic, '-o', 'beginning', '-c', String(count), '-e', '-q'],
    { timeout: 20_000 },
  );
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * The original's public Ansible quick start (padasio/padas-demo, roles/padas-engine) replayed
 * against Weir: the same calls, in the same order, with the same bytes (test/fixtures/original/README.md, a copy of shared/data/original),
 * then the loaded topology runs on the broker and raises its alerts.
 */
describe("the original's Ansible quick start, unchanged", () => {
  let t: TestNode;
  let token: string;
  const settings = isolatedEngine('padas-quickstart');
  const json = 'application/json';

  before(async () => {
    // The playbooks' admin password (admin123) is a common one: refused unless the rule is off.
    t = await startTestNode({ ...settings, 'weir.auth.password-refuse-common': 'false' });
    // The quick start assumes an engine set up with its user (get_tokens.yml logs in as merihb).
    const init = await t.call('POST', '/api/init', {
      body: {
        name: 'Merih',
        username: 'merihb',
        email: 'merihb@example.com',
        password: 'admin123',
        roles: [{ name: 'admin' }],
      },
    });
    assert.equal(init.status, 201, init.text);
  });
  after(async () => {
    await t.call('DELETE', '/api/topics/test_input', { token });
    await t.call('DELETE', '/api/topics/test_output', { token });
    await t.stop();
  });

  test('login, topics, bulk rules, tasks, pipelines, topologies answer as the playbooks expect', async () => {
    // get_tokens.yml: a YAML single-quoted scalar over three lines, folded into one line.
    const login = await t.call('POST', '/api/login', {
      contentType: json,
      body: '{ "username" : "merihb", "password" : "admin123" }',
    });
    assert.equal(login.status, 200, login.text);
    token = (login.body as { access_token: string }).access_token;
    assert.ok((login.body as { refresh_token?: string }).refresh_token);

    for (const name of ['test_input', 'test_output']) {
      const created = await t.call('POST', '/api/topics', { token, contentType: json, body: topicBody(name) });
      assert.ok([200, 201].includes(created.status), created.text);
      assert.equal((created.body as { name: string }).name, name, 'create_topics.yml prints api_response.json.name');
    }

    const sent: Record<string, unknown[]> = {};
    for (const [endpoint, file] of [
      ['rules', 'Rules.json'],
      ['tasks', 'Tasks.json'],
      ['pipelines', 'Pipelines.json'],
      ['topologies', 'Topologies.json'],
    ] as const) {
      const res = await t.call('POST', `/api/bulk/${endpoint}`, { token, contentType: json, body: bytes(file) });
      assert.equal(res.status, 200, `${endpoint}: ${res.text}`);
      sent[endpoint] = JSON.parse(bytes(file).toString('utf8')) as unknown[];
      // create_*_bulk.yml print `rule.name` of every element of the answer.
      assert.deepEqual(
        (res.body as { name: string }[]).map((r) => r.name),
        sent[endpoint]!.map((r) => (r as { name: string }).name),
      );
    }

    const rules = (await t.call('GET', '/api/rules', { token })).body as { id: string; pdl: string }[];
    assert.deepEqual(
      rules.map((r) => r.id),
      ['test_rule_for_evil', 'test_rule_for_failure'],
    );
    assert.equal(rules[0]!.pdl, 'group_name=\\"evil*\\"', 'the PDL is stored as sent');
    const topologies = (await t.call('GET', '/api/topologies', { token })).body as { id: number; name: string }[];
    assert.deepEqual(
      topologies.map((r) => [r.id, r.name]),
      [
        [2, 'test-winlogbeat:evil_user:alert'],
        [3, 'test-winlogbeat:evil_user:alert'],
      ],
      'both topologies are stored, told apart by id',
    );
  });

  test('the loaded topologies run on the broker and raise the alerts (engine restarted with an empty JSON body)', async () => {
    // Many clients send Content-Type: application/json with an empty body on body-less calls.
    const stop = await t.call('POST', '/api/engine/stop', { token, contentType: json, body: '' });
    assert.equal(stop.status, 200, stop.text);
    const start = await t.call('POST', '/api/engine/start', { token, contentType: json, body: '' });
    assert.equal(start.status, 200, start.text);
    await waitForRunning(t, token);

    await produce('test_input', [
      JSON.stringify({ user: 'bob', group_id: 1, action: 'failure' }),
      JSON.stringify({ user: 'ann', group_id: 2, action: 'success' }),
    ]);
    // Two topologies (ids 2 and 3) read test_input; rules match all: bob's event raises both rules' alerts in each.
    const out = await waitFor(
      'four alerts on test_output',
      async () => {
        const records = await kcat('test_output', 4).catch(() => []);
        return records.length === 4 ? records : undefined;
      },
      60_000,
    );
    for (const alert of out) {
      assert.equal(alert.user, 'bob');
      assert.equal(alert.group_name, 'evil group', 'task 1 (PDL_EXPRESSION eval) ran');
    }
    assert.deepEqual(out.map((a) => (a._rule as { id: string }).id).sort(), [
      'test_rule_for_evil',
      'test_rule_for_evil',
      'test_rule_for_failure',
      'test_rule_for_failure',
    ]);
    const alerts = await kcat(`${settings['weir.topic.prefix']}_alerts`, 4);
    assert.equal(alerts.length, 4);
    assert.ok(alerts.every((a) => a.user === 'bob'));
  });
});
