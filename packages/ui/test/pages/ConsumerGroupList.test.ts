import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Admin } from '@platformatic/kafka';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { kafkaConsumerGroupsList } from '@weir/test-helpers/kafka-tools';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { apiAs, gridRows, initAdmin, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The consumer groups list (pages/ConsumerGroupList.tsx) with more groups than a screen holds, in
 * Debian's chromium against the real UI server, engine and broker: every group is listed (the
 * table's row count against kafka-consumer-groups --list), only the rows in its scroll box are in the
 * page, scrolling brings the last one, the search narrows the rows and rides in the URL.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-group-list');
const prefix = `${engine['weir.application.id']}-many`;
const topic = `${engine['weir.topic.prefix']}_many`;
const groups = Array.from({ length: 120 }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
const password = 'grace-password-1';

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  ctx = await c.context('light');
  page = await ctx.newPage();
  assert.equal(await initAdmin(page, password), 201);
  const created = await apiAs(page, { username: 'grace', password }, 'POST', '/api/topics', {
    name: topic,
    numberOfPartitions: 1,
    replicationFactor: 1,
  });
  assert.equal(created.status, 201, created.text);
  const admin = new Admin({ clientId: 'weir-ui-group-list-test', bootstrapBrokers: [testBootstrap()] });
  try {
    for (let i = 0; i < groups.length; i += 20)
      await Promise.all(
        groups.slice(i, i + 20).map((groupId) =>
          admin.alterConsumerGroupOffsets({
            groupId,
            topics: [{ name: topic, partitionOffsets: [{ partition: 0, offset: 0n }] }],
          }),
        ),
      );
  } finally {
    await admin.close();
  }
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
});

const table = () => page.getByRole('table', { name: 'Consumer groups' });

test('120 groups: all counted, a screenful in the page, the last reached by scrolling; the search narrows and rides in the URL', async () => {
  const listed = (await kafkaConsumerGroupsList()).filter((g) => g.startsWith(`${prefix}-`));
  assert.equal(listed.length, groups.length);

  await page.goto(`/groups?search=${encodeURIComponent(prefix)}`);
  await page.getByLabel('Search groups').waitFor();
  assert.equal(await page.getByLabel('Search groups').inputValue(), prefix);
  await page
    .getByTestId('group-count')
    .filter({ hasText: `${groups.length} of ` })
    .waitFor();
  assert.equal(await table().getAttribute('aria-rowcount'), String(groups.length + 1));
  const inPage = await gridRows(page, 'Consumer groups');
  assert.ok(inPage.length > 5 && inPage.length < 40, `${inPage.length} rows in the page`);
  assert.deepEqual(inPage[0], [groups[0], 'Empty', '0', '0', '']);

  await table().evaluate((box) => box.scrollTo(0, box.scrollHeight));
  await page.getByRole('link', { name: groups.at(-1)!, exact: true }).waitFor();
  assert.equal(await page.getByRole('link', { name: groups[0]!, exact: true }).count(), 0);

  await page.getByLabel('Search groups').fill(`${prefix}-07`);
  await page.getByTestId('group-count').filter({ hasText: '10 of ' }).waitFor();
  assert.deepEqual(
    (await gridRows(page, 'Consumer groups')).map((r) => r[0]),
    groups.filter((g) => g.startsWith(`${prefix}-07`)),
  );
  await page.getByRole('link', { name: `${prefix}-075`, exact: true }).click();
  await page.getByRole('heading', { name: `Consumer group ${prefix}-075` }).waitFor();
});
