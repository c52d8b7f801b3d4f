import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { apiAs, initAdmin, signIn, startConsole, tableRows, type Console } from '../helpers/console.ts';

/**
 * The dialogs a page opens (components/dialog.ts), on a topic's page in Debian's chromium against the
 * real UI server, engine and broker: an action refused keeps the dialog open with the reason in it;
 * closed, nothing changes; done, the dialog closes and the page reloads what the action changed.
 */
let c: Console;
let page: Page;
const engine = isolatedEngine('ui-dialog');
const topic = `${engine['weir.topic.prefix']}_dialog`;
const password = 'grace-password-1';

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  const ctx = await c.context('light');
  page = await ctx.newPage();
  assert.equal(await initAdmin(page, password), 201);
  const created = await apiAs(page, { username: 'grace', password }, 'POST', '/api/topics', {
    name: topic,
    numberOfPartitions: 1,
    replicationFactor: 1,
  });
  assert.equal(created.status, 201, created.text);
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
});

test('refused: the reason in the open dialog; closed: nothing changed; done: closed and the page reloaded', async () => {
  await page.goto(`/topics/${topic}`);
  await page
    .getByTestId('topic-totals')
    .getByText(/^1 partition · /)
    .waitFor();

  await page.getByRole('button', { name: 'Purge records' }).click();
  const purge = page.getByRole('dialog', { name: `Purge records of ${topic}` });
  await purge.getByText('A time, on every partition').click();
  await purge.getByLabel('Delete records older than (ISO 8601)').fill('yesterday');
  await purge.getByLabel('Topic name').fill(topic);
  await purge.getByRole('button', { name: 'Purge' }).click();
  assert.equal(
    await purge.getByRole('alert').innerText(),
    "Time: 'yesterday' is not a date and time (e.g. 2026-11-26T08:00:00Z)",
  );
  await page.keyboard.press('Escape');
  await purge.waitFor({ state: 'detached' });
  assert.equal((await tableRows(page, 'Partitions')).length, 1);

  await page.getByRole('button', { name: 'Add partitions' }).click();
  const grow = page.getByRole('dialog', { name: `Add partitions to ${topic}` });
  await grow.getByLabel('New number of partitions').fill('2');
  await grow.getByRole('button', { name: 'Add partitions' }).click();
  await grow.waitFor({ state: 'detached' });
  await page
    .getByTestId('topic-totals')
    .getByText(/^2 partitions/)
    .waitFor();
  assert.deepEqual(
    (await tableRows(page, 'Partitions')).map((r) => r[0]),
    ['0', '1'],
  );
});
