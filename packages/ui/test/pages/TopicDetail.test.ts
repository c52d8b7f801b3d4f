import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { kafkaConfigsDescribe } from '@weir/test-helpers/kafka-tools';
import { kcatEndOffsets, kcatOffsetsAt, kcatPartitions } from '@weir/test-helpers/kcat';
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
  tableRows,
  type Console,
} from '../helpers/console.ts';

/**
 * A topic's own page in Debian's chromium against the real UI server, engine and broker: partitions
 * and offsets as kcat sees them, a setting edited and reset (kafka-configs), partitions added and
 * records purged (kcat).
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-topic');
const topic = `${engine['weir.topic.prefix']}_events`;
const password = 'grace-password-1';

const rows = (name: string) => tableRows(page, name);

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  ctx = await c.context('light');
  page = await ctx.newPage();
  const grace = { username: 'grace', password };
  const init = await initAdmin(page, password);
  const created = await apiAs(page, grace, 'POST', '/api/topics', {
    name: topic,
    numberOfPartitions: 2,
    replicationFactor: 1,
  });
  const messages = Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: { n: i } }));
  const produced = await apiAs(page, grace, 'POST', `/api/topics/${topic}/produce`, { messages });
  assert.deepEqual([init, created.status, produced.status], [201, 201, 201]);
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['topic-detail-light']);
});

test('partitions: leader, replicas, in-sync replicas, offsets and counts as kcat sees them', async () => {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Topics', exact: true }).click();
  await page.getByLabel('Search topics').fill(topic);
  await page.getByRole('link', { name: topic }).click();
  await page.getByRole('heading', { name: `Topic ${topic}` }).waitFor();
  await page.getByRole('table', { name: 'Partitions' }).locator('tbody tr').first().waitFor();
  const [meta, ends] = await Promise.all([kcatPartitions(topic), kcatEndOffsets(topic, 2)]);
  const shown = await rows('Partitions');
  assert.deepEqual(
    shown.map((r) => r.slice(0, 7)),
    meta.map((m) => [
      String(m.partition),
      String(m.leader),
      m.replicas.join(', '),
      m.isrs.join(', '),
      '0',
      String(ends[m.partition]),
      String(ends[m.partition]),
    ]),
  );
  assert.match((await page.getByTestId('topic-totals').textContent()) ?? '', /^2 partitions · 30 messages · \d/);
  await page.mouse.move(900, 880);
  await shoot(page, 'topic-detail-light');
  assert.deepEqual(await seriousViolations(page), []);
});

test('a setting edited shows as changed and is what kafka-configs shows; reset to default', async () => {
  await page.getByRole('button', { name: 'Edit retention.ms' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit retention.ms' });
  await dialog.getByLabel('Value').fill('3600000');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByLabel('Only settings changed on this topic').check();
  await page.getByRole('table', { name: 'Settings' }).getByText('changed').waitFor();
  assert.deepEqual(await rows('Settings'), [['retention.mschanged', '3600000', 'DYNAMIC_TOPIC_CONFIG', 'Edit']]);
  assert.deepEqual(await kafkaConfigsDescribe(topic), { 'retention.ms': '3600000' });

  await page.getByRole('button', { name: 'Edit retention.ms' }).click();
  await dialog.getByRole('button', { name: 'Reset to default' }).click();
  await page.getByRole('table', { name: 'Settings' }).getByText('changed').waitFor({ state: 'detached' });
  assert.deepEqual(await rows('Settings'), []);
  assert.deepEqual(await kafkaConfigsDescribe(topic), {});

  await page.getByLabel('Only settings changed on this topic').uncheck();
  await page.getByRole('button', { name: 'Edit cleanup.policy' }).click();
  const policy = page.getByRole('dialog', { name: 'Edit cleanup.policy' });
  await policy.getByLabel('Value').fill('sideways');
  await policy.getByRole('button', { name: 'Save' }).click();
  await policy.getByText(/Unable to change Kafka topic .*: .*sideways/).waitFor();
  await page.keyboard.press('Escape');
});

test('add partitions and purge with the name typed: kcat sees three partitions and the new log start', async () => {
  await page.getByRole('button', { name: 'Add partitions' }).click();
  const grow = page.getByRole('dialog', { name: `Add partitions to ${topic}` });
  await grow.getByLabel('New number of partitions').fill('3');
  await grow.getByRole('button', { name: 'Add partitions' }).click();
  await page
    .getByTestId('topic-totals')
    .getByText(/^3 partitions/)
    .waitFor();
  assert.equal((await kcatPartitions(topic)).length, 3);

  const ends = await kcatEndOffsets(topic, 3);
  await page.getByRole('button', { name: 'Purge records' }).click();
  const purge = page.getByRole('dialog', { name: `Purge records of ${topic}` });
  await purge.getByRole('textbox', { name: 'Partition', exact: true }).fill('0');
  await purge.getByLabel('Delete records before offset').fill(String(ends[0]! - 1));
  const confirm = purge.getByRole('button', { name: 'Purge' });
  assert.equal(await confirm.isDisabled(), true);
  await purge.getByLabel('Topic name').fill(topic);
  await confirm.click();
  await page.getByText(`Purged ${topic}: partition 0 now starts at ${ends[0]! - 1}`).waitFor();
  assert.deepEqual(await kcatOffsetsAt(topic, 3, -2), [ends[0]! - 1, 0, 0]);
  await page
    .getByRole('table', { name: 'Partitions' })
    .getByRole('cell', { name: String(ends[0]! - 1) })
    .first()
    .waitFor();
  assert.deepEqual((await rows('Partitions'))[0]!.slice(4, 7), [String(ends[0]! - 1), String(ends[0]), '1']);
});

test('a user sees the partitions and settings, in light and dark, without any change control', async () => {
  const uma = await createReadOnlyUser(page, { username: 'grace', password });
  await inBothSchemes(c, uma, async (p) => {
    await p.goto(`/topics/${topic}`);
    await p.getByRole('table', { name: 'Settings' }).locator('tbody tr').first().waitFor();
    await p.getByRole('table', { name: 'Partitions' }).locator('tbody tr').first().waitFor();
    assert.deepEqual(await buttonsMatching(p, /^(Add partitions|Purge records|Edit)$/), []);
  });
});
