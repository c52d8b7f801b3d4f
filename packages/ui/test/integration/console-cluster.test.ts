import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post, waitFor } from '@weir/test-helpers/engine';
import { request } from '@weir/test-helpers/https-client';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { createTopic, uniqueTopic } from '@weir/test-helpers/topics';
import {
  consoleFor,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  type Console,
} from '../helpers/console.ts';

/**
 * The Overview of a cluster in Debian's chromium: two real engine nodes sharing a Kafka store (one
 * consumer group, one set of weir topics) on the test broker, the real UI server in front of the
 * first one only. Node b is reached through the UI server's per-node calls (docs/ui.md → Cluster).
 */
const shared = {
  ...isolatedEngine('ui-cluster'),
  'weir.config.store': 'kafka',
  'weir.node.heartbeat-seconds': '1',
  'weir.node.dead-after-seconds': '3',
};
let a: TestNode;
let b: TestNode;
let bStopped = false;
let c: Console;
let page: Page;
let token: string;
const uuidOf = (t: TestNode) => t.node.context.uuid;
const states = async (t: TestNode) =>
  ((await t.call('GET', '/api/engine/state', { token })).body as { states: string[] }).states;
const stopped = (s: string[]) => s.length > 0 && s.every((x) => x === 'NOT_RUNNING');
const nodeRow = (p: Page, t: TestNode) => p.getByTestId('node-row').filter({ hasText: uuidOf(t) });
const recordsIn = async (t: TestNode) =>
  (
    (await t.call('GET', '/api/metrics/summary', { token })).body as { recordsIn: { value: number }[] }
  ).recordsIn.reduce((sum, r) => sum + r.value, 0);

before(async () => {
  a = await startTestNode(shared);
  b = await startTestNode(shared);
  c = await consoleFor(a);
  token = await a.initAdmin();
  // One token secret and one user store for the cluster: b accepts a's token once it has read them.
  await waitFor('b to accept the token', async () => (await b.call('GET', '/api/nodes', { token })).status === 200);
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});
after(async () => {
  await c?.stop();
  if (!bStopped) await b?.stop();
  publishDocScreenshots(['overview-cluster-light']);
});

describe('the Overview of a two-node cluster, served by node a', () => {
  test('lists both nodes with the engine state of each worker, node b read through the UI server', async () => {
    await page.getByTestId('cluster-nodes').filter({ hasText: '2 of 2 nodes answering' }).waitFor();
    for (const t of [a, b]) {
      const row = nodeRow(page, t);
      await row.getByText(/^worker 0: /).waitFor();
      assert.match((await row.textContent()) ?? '', new RegExp(`127\\.0\\.0\\.1:${new URL(t.url).port}`));
    }
    assert.match((await nodeRow(page, a).textContent()) ?? '', /this UI's engine/);
    assert.doesNotMatch((await nodeRow(page, b).textContent()) ?? '', /this UI's engine/);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test("engine start/stop per node: node b's buttons stop and start node b only", async () => {
    await page.getByRole('button', { name: `Stop engine on ${uuidOf(b)}` }).click();
    await waitFor('b stopped', async () => stopped(await states(b)));
    assert.equal(stopped(await states(a)), false, 'a keeps running');
    await nodeRow(page, b).getByText('worker 0: NOT_RUNNING').waitFor();
    await page.getByRole('button', { name: `Start engine on ${uuidOf(b)}` }).click();
    await waitFor('b started', async () => !stopped(await states(b)));
    // Node a (this UI's engine) stops too: from now on b alone processes the input.
    await page.getByRole('button', { name: `Stop engine on ${uuidOf(a)}` }).click();
    await waitFor('a stopped', async () => stopped(await states(a)));
    await nodeRow(page, a).getByText('worker 0: NOT_RUNNING').waitFor();
  });

  test('the figures are the cluster’s: records that node b processed show on the overview node a serves', async () => {
    const input = uniqueTopic('ui-cluster');
    await createTopic(a, token, input, 2);
    await post(a, token, '/api/rules', {
      id: 'failed-login',
      name: 'Failed login',
      pdl: 'status="failed"',
      enabled: true,
    });
    await post(a, token, '/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: {} });
    await post(a, token, '/api/tasks', {
      id: 2,
      name: 'rules',
      description: '',
      function: 'APPLY_RULES',
      definition: { rules: ['failed-login'] },
    });
    await post(a, token, '/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1, 2] });
    await post(a, token, '/api/topologies', {
      id: 1,
      name: 'auth',
      description: '',
      pipelines: [1],
      input: { name: input },
      output: [{ name: `${input}-out` }],
    });
    // b may still be joining the group for the new topology: produce until it counts records.
    const processed = await waitFor(
      'node b to process records',
      async () => {
        const res = await a.call('POST', `/api/topics/${input}/produce`, {
          token,
          body: { messages: [{ value: 'user=alice action=login status=failed' }] },
        });
        assert.equal(res.status, 201, res.text);
        await new Promise((r) => setTimeout(r, 1000));
        const n = await recordsIn(b);
        return n > 0 ? n : undefined;
      },
      90_000,
    );
    assert.equal(await recordsIn(a), 0, 'node a processed nothing');
    await waitFor(
      'the overview to count node b’s records',
      async () => Number(await page.getByTestId('records-in').textContent()) >= processed,
    );
    const topologies = page.getByTestId('topology-figures');
    await topologies.getByRole('cell', { name: 'auth', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'failed-login', exact: true }).waitFor();
    await shoot(page, 'overview-cluster-light');
  });

  test('the UI server passes only the per-node calls, to registered nodes, and the node checks the token', async () => {
    const ui = c.ui.url;
    const summary = await request(ui, 'GET', `/ui/nodes/${uuidOf(b)}/api/metrics/summary`, { token });
    assert.equal(summary.status, 200, summary.text);
    assert.equal((summary.body as { node: string }).node, uuidOf(b));
    // the Topologies page's retention warnings of node b (none: its topics keep everything)
    const warnings = await request(ui, 'GET', `/ui/nodes/${uuidOf(b)}/api/engine/warnings`, { token });
    assert.equal(warnings.status, 200, warnings.text);
    assert.deepEqual(warnings.body, { warnings: [] });
    const other = await request(ui, 'GET', `/ui/nodes/${uuidOf(b)}/api/users`, { token });
    assert.equal(other.status, 404);
    assert.match((other.body as { debugMessage: string }).debugMessage, /passes only GET \/api\/metrics\/summary/);
    assert.equal((await request(ui, 'GET', `/ui/nodes/${uuidOf(b)}/api/engine/state`)).status, 401);
    assert.equal((await request(ui, 'GET', `/ui/nodes/${randomUUID()}/api/engine/state`, { token })).status, 404);
    const user = await a.createUser(token, 'uma');
    assert.equal((await request(ui, 'POST', `/ui/nodes/${uuidOf(b)}/api/engine/stop`, { token: user })).status, 403);
    assert.equal(stopped(await states(b)), false, 'the refused stop changed nothing');
  });

  test('a node that goes away is shown as unreachable, not silently left out of the sums', async () => {
    await b.stop();
    bStopped = true;
    await nodeRow(page, b)
      .getByText(/^Unreachable: /)
      .waitFor();
    await page.getByTestId('cluster-nodes').filter({ hasText: '1 of 2 nodes answering' }).waitFor();
  });
});
