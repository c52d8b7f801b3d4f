import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The topology graph (components/TopologyGraph.tsx) on the Topologies page in Debian's chromium
 * against the real UI server and engine: the chain, the rules an APPLY_RULES task applies, the dashed
 * side paths to the alerts topic and the input's dead-letter topic; and the editor's serde fields.
 */
let c: Console;
let page: Page;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-topology-graph'), 'weir.engine.autostart': 'false' });
  const token = await c.node.initAdmin();
  await post(c.node, token, '/api/topics', { name: 'tg-logs', numberOfPartitions: 1, replicationFactor: 1 });
  const rules = ['failed-login', 'brute-force', 'new-admin', 'odd-hours', 'tor-exit'];
  for (const id of rules)
    await post(c.node, token, '/api/rules', { id, name: id, pdl: 'status="failed"', enabled: true });
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'parse',
    description: '',
    function: 'PARSE_KV',
    definition: {},
  });
  await post(c.node, token, '/api/tasks', {
    id: 2,
    name: 'detect',
    description: '',
    function: 'APPLY_RULES',
    definition: { rules },
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'main', description: '', tasks: [1, 2] });
  await post(c.node, token, '/api/topologies', {
    id: 1,
    name: 'auth',
    description: '',
    pipelines: [1],
    enabled: false,
    group: 'default',
    input: { name: 'tg-logs' },
    output: [{ name: 'tg-out' }],
  });
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

test('the graph: input, tasks, output, the rules of APPLY_RULES, the alerts topic and <input>-dlq', async () => {
  await page.goto('/topologies');
  const graph = page.getByTestId('topology-graph');
  await graph.getByText('⇢ tg-logs', { exact: true }).waitFor();
  const labels = await graph.locator('.react-flow__node').allInnerTexts();
  assert.deepEqual(labels.sort(), [
    'alerts topic ⇢',
    'detect (APPLY_RULES)\nrules: failed-login, brute-force, new-admin +2 more',
    'parse (PARSE_KV)',
    'pipeline 1 · main',
    'tg-logs-dlq ⇢',
    'tg-out ⇢',
    '⇢ tg-logs',
  ]);
  const edgeLabels = await graph.locator('.react-flow__edge-text').allTextContents();
  assert.deepEqual(edgeLabels.sort(), ['alerts', 'dead letters', '… rec/s', '… rec/s']);
  assert.equal(await graph.locator('.react-flow__edge-path[style*="stroke-dasharray"]').count(), 2);
});

test('the editor names serdes by their short class name, the full class in the title and the open list', async () => {
  await page.goto('/topologies/1');
  const drawer = page.getByRole('dialog', { name: 'Topology 1' });
  const key = drawer.getByLabel('Key serde', { exact: true }).first();
  assert.equal(await key.inputValue(), 'StringSerde');
  assert.equal(await key.getAttribute('title'), 'org.apache.kafka.common.serialization.Serdes$StringSerde');
  await key.click();
  const option = page.getByRole('option', { name: /^LongSerde/ });
  assert.deepEqual(await option.locator('p').allTextContents(), [
    'LongSerde',
    'org.apache.kafka.common.serialization.Serdes$LongSerde',
  ]);
});
