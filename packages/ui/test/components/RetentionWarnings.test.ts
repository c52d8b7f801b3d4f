import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProduceAcks, Producer } from '@platformatic/kafka';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine, post, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { uniqueTopic } from '@weir/test-helpers/topics';
import { seriousViolations, shoot, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The engine's retention warning on the Topologies page and in the topology's drawer (docs/ui.md →
 * Topologies), in Debian's chromium against the real UI server, engine and broker: a topology reads
 * a topic with a one-day retention.ms, and records 13 hours old are replayed into it.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const input = uniqueTopic('ui-ret-in');
const output = uniqueTopic('ui-ret-out');
const fix =
  `Set retention.ms=-1 on topic ${input} (or a retention longer than the age of the data): ` +
  `kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name ${input} --add-config retention.ms=-1. ` +
  `New topics for replays: create them with retention.ms=-1 (POST /api/topics with "options": {"retention.ms": "-1"}).`;

before(async () => {
  c = await startConsole(isolatedEngine('ui-retention'));
  const token = await c.node.initAdmin();
  await createTopics([output]);
  await createTopics([input], 1, [{ name: 'retention.ms', value: '86400000' }]);
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'parse',
    description: '',
    function: 'PARSE_KV',
    definition: {},
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'parse', description: '', tasks: [1] });
  await post(c.node, token, '/api/topologies', {
    id: 5,
    name: 'replay',
    description: '',
    pipelines: [1],
    enabled: true,
    input: { name: input },
    output: [{ name: output }],
  });
  const producer = new Producer({ clientId: 'weir-test-producer', bootstrapBrokers: [testBootstrap()] });
  try {
    await producer.send({
      messages: [
        { topic: input, value: Buffer.from('user=bob action=login'), timestamp: BigInt(Date.now() - 13 * 3_600_000) },
      ],
      acks: ProduceAcks.ALL,
    });
  } finally {
    await producer.close();
  }
  await waitFor('the engine to warn', async () => {
    const res = await c.node.call('GET', '/api/engine/warnings', { token });
    return (res.body as { warnings: unknown[] }).warnings.length > 0;
  });
  ctx = await c.context('light');
  page = await ctx.newPage();
  await signIn(page, 'admin', 'admin-pw');
});
after(async () => {
  await c?.stop();
});

describe('Topologies: retention warning', () => {
  test('the page and the topology drawer show the warning with the topic setting to change', async () => {
    await page.goto('/topologies');
    await page.getByRole('heading', { name: 'Topologies', exact: true }).waitFor();
    const warning = page.getByTestId('retention-warning');
    await warning.waitFor();
    assert.equal(await warning.count(), 1);
    const text = await warning.innerText();
    assert.match(text, /^Topology 5 · replay: input records near their retention\n/);
    assert.match(
      text,
      new RegExp(
        `Topic ${input} keeps records 24 h \\(retention\\.ms=86400000\\), and Weir reads records 13 h old ` +
          `\\(${input}/0 offset 0, timestamp \\S+\\): records that old are deleted within 11 h, read or not, ` +
          `so records not read yet can vanish without being processed\\.`,
      ),
    );
    assert.ok(text.includes(`Fix: ${fix}`), text);
    await page.waitForLoadState('networkidle').catch(() => {});
    await shoot(page, 'topologies-retention-warning-light');
    assert.deepEqual(await seriousViolations(page), []);

    await page.getByRole('button', { name: 'Edit topology 5' }).click();
    const drawer = page.getByRole('dialog', { name: 'Topology 5' });
    const inDrawer = drawer.getByTestId('retention-warning');
    await inDrawer.waitFor();
    assert.equal(await inDrawer.innerText(), text);
  });
});
