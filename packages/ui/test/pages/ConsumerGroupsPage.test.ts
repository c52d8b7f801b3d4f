import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Admin, Consumer } from '@platformatic/kafka';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { kafkaConsumerGroupsDescribe } from '@weir/test-helpers/kafka-tools';
import { testBootstrap } from '@weir/test-helpers/test-node';
import {
  apiAs,
  buttonsMatching,
  createReadOnlyUser,
  inBothSchemes,
  initAdmin,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  gridRows,
  tableRows,
  type Console,
} from '../helpers/console.ts';

/**
 * The consumer groups page in Debian's chromium against the real UI server, engine and broker: the
 * list and a group's partitions agree with kafka-consumer-groups; the lag chart fills as the node
 * samples; a reset is refused while the group has a member, then done; delete.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-groups');
/** The consumer group of the engine's `default` node group: its topology links from the page. */
const weirGroup = engine['weir.application.id']!;
const topic = `${engine['weir.topic.prefix']}_orders`;
const readers = `${weirGroup}-readers`;
const password = 'grace-password-1';
const kafka = { clientId: 'weir-ui-groups-test', bootstrapBrokers: [testBootstrap()] };

const call = (method: string, url: string, body?: unknown) =>
  apiAs(page, { username: 'grace', password }, method, url, body);

const nav = (label: string) =>
  page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();

const rows = (name: string) => tableRows(page, name);

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false', 'weir.groups.lag.sample-seconds': '1' });
  ctx = await c.context('light');
  page = await ctx.newPage();
  const init = await initAdmin(page, password);
  assert.equal(init, 201);
  const created = await call('POST', '/api/topics', { name: topic, numberOfPartitions: 2, replicationFactor: 1 });
  assert.equal(created.status, 201, created.text);
  const messages = Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: { n: i } }));
  const produced = await call('POST', `/api/topics/${topic}/produce`, { messages });
  assert.equal(produced.status, 201, produced.text);
  const topology = { id: 1, name: 'Orders', pipelines: [], enabled: false, group: 'default', input: topic, output: [] };
  assert.equal((await call('POST', '/api/topologies', topology)).status, 201);
  const admin = new Admin(kafka);
  try {
    for (const groupId of [readers, weirGroup])
      await admin.alterConsumerGroupOffsets({
        groupId,
        topics: [
          {
            name: topic,
            partitionOffsets: [
              { partition: 0, offset: 1n },
              { partition: 1, offset: 2n },
            ],
          },
        ],
      });
  } finally {
    await admin.close();
  }
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['consumer-groups-light', 'consumer-group-light']);
});

test('the list: state, members and lag as kafka-consumer-groups shows them; Weir topology groups link to their topology', async () => {
  await nav('Consumer groups');
  await page.getByRole('heading', { name: 'Consumer groups', exact: true }).waitFor();
  await page.getByLabel('Search groups').fill(weirGroup);
  const lag = (rows: { lag: number | null }[]) => String(rows.reduce((s, r) => s + (r.lag ?? 0), 0));
  const [toolReaders, toolWeir] = await Promise.all([
    kafkaConsumerGroupsDescribe(readers),
    kafkaConsumerGroupsDescribe(weirGroup),
  ]);
  await page.getByRole('link', { name: readers }).waitFor();
  assert.deepEqual(await gridRows(page, 'Consumer groups'), [
    [weirGroup, 'Empty', '0', lag(toolWeir), 'Orders'],
    [readers, 'Empty', '0', lag(toolReaders), ''],
  ]);
  // Away from the navigation link just clicked: its hover colours are the shell's, checked elsewhere.
  await page.mouse.move(900, 880);
  await shoot(page, 'consumer-groups-light');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('link', { name: 'Orders' }).click();
  await page.getByRole('heading', { name: 'Topologies', exact: true }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/topologies/1');
});

test('a group: its partitions as kafka-consumer-groups shows them; the lag chart fills as the node samples', async () => {
  await page.goto(`/groups/${readers}`);
  await page.getByRole('heading', { name: `Consumer group ${readers}` }).waitFor();
  await page.getByRole('table', { name: 'Partitions of the group' }).locator('tbody tr').first().waitFor();
  const tool = await kafkaConsumerGroupsDescribe(readers);
  assert.deepEqual(
    await rows('Partitions of the group'),
    tool.map((r) => [
      r.topic,
      String(r.partition),
      String(r.currentOffset),
      String(r.logEndOffset),
      String(r.lag),
      '—',
    ]),
  );
  // Sampled every second; the page reads the history every 10 s.
  const chart = page.getByRole('img', { name: new RegExp(`^Lag of ${readers}: \\d+ samples`) });
  await chart.waitFor({ timeout: 30_000 });
  const total = tool.reduce((s, r) => s + (r.lag ?? 0), 0);
  assert.match((await chart.getAttribute('aria-label')) ?? '', new RegExp(`latest total ${total}$`));
  assert.deepEqual(await page.getByTestId('lag-legend').locator('p').allTextContents(), [
    `total: ${total}`,
    ...tool.filter((r) => r.lag! > 0).map((r) => `${r.topic}[${r.partition}]: ${r.lag}`),
  ]);
  await shoot(page, 'consumer-group-light');
  assert.deepEqual(await seriousViolations(page), []);
});

test('a user sees the group, its partitions and chart, in light and dark, without reset or delete', async () => {
  const uma = await createReadOnlyUser(page, { username: 'grace', password });
  await inBothSchemes(c, uma, async (p) => {
    await p.goto(`/groups/${readers}`);
    await p.getByRole('table', { name: 'Partitions of the group' }).locator('tbody tr').first().waitFor();
    await p.getByRole('img', { name: new RegExp(`^Lag of ${readers}`) }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await buttonsMatching(p, /^(Reset offsets|Delete group)$/), []);
  });
});

test('reset offsets: refused while the group has a member, then to earliest as kafka-consumer-groups sees it; delete', async () => {
  await page.goto(`/groups/${readers}`);
  const consumer = new Consumer({ ...kafka, groupId: readers, maxWaitTime: 200 });
  const stream = await consumer.consume({ topics: [topic], mode: 'committed', autocommit: false });
  try {
    await page
      .getByTestId('group-summary')
      .getByText(/^1 member/)
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Reset offsets' }).click();
    const dialog = page.getByRole('dialog', { name: `Reset offsets of ${readers}` });
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await dialog
      .getByText(
        new RegExp(
          `Unable to reset the offsets of group ${readers}: it has 1 active member \\(state \\w+\\); stop its consumers first\\.`,
        ),
      )
      .waitFor();
    await dialog
      .getByRole('button', { name: 'Close' })
      .click()
      .catch(() => page.keyboard.press('Escape'));
  } finally {
    await stream.close();
    await consumer.close(true);
  }
  await page
    .getByTestId('group-summary')
    .getByText(/^0 members/)
    .waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Reset offsets' }).click();
  const dialog = page.getByRole('dialog', { name: `Reset offsets of ${readers}` });
  await dialog.getByText('Earliest').click();
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await page.getByText(`Offsets of ${readers} reset: ${topic}[0] → 0, ${topic}[1] → 0`).waitFor();
  assert.deepEqual(
    (await kafkaConsumerGroupsDescribe(readers)).map((r) => r.currentOffset),
    [0, 0],
  );

  await page.getByRole('button', { name: 'Delete group' }).click();
  await page
    .getByRole('dialog', { name: `Delete group ${readers}` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await page.getByRole('heading', { name: 'Consumer groups', exact: true }).waitFor();
  await page.getByLabel('Search groups').fill(weirGroup);
  await page.getByRole('link', { name: weirGroup, exact: true }).waitFor();
  assert.deepEqual(
    (await gridRows(page, 'Consumer groups')).map((r) => r[0]),
    [weirGroup],
  );
});
