import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { apiAs, initAdmin, seriousViolations, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The JSON tree of the message browser's drawer in Debian's chromium (real UI server, engine and
 * broker): what starts folded, expand and collapse all, long arrays cut, paths of odd keys, and
 * values that are not JSON.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-json-tree');
const topic = `${engine['weir.topic.prefix']}_tree`;
const password = 'grace-password-1';
/** What the page's clipboard holds (the tests' types have no DOM). */
const clipboard = () =>
  page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
const grace = { username: 'grace', password };
const deep = { a: { b: { c: { d: 1 } } }, 'odd key': { 'x"y': true }, list: Array.from({ length: 601 }, (_, i) => i) };

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  ctx = await c.context('dark');
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await ctx.newPage();
  const init = await initAdmin(page, password);
  const created = await apiAs(page, grace, 'POST', '/api/topics', {
    name: topic,
    numberOfPartitions: 1,
    replicationFactor: 1,
  });
  const produced = await apiAs(page, grace, 'POST', `/api/topics/${topic}/produce`, {
    messages: [{ key: 'k1', value: JSON.stringify(deep) }, { value: 'not json {' }],
  });
  assert.deepEqual([init, created.status, produced.status], [201, 201, 201]);
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
  await page.goto(`/messages?topic=${topic}`);
  await page.getByRole('button', { name: 'Read' }).click();
  await page.getByTestId('consume-status').filter({ hasText: 'COMPLETED' }).waitFor();
});

after(async () => {
  await c?.stop();
});

test('three levels start open; expand all and collapse all; a long array shows its first 500', async () => {
  await page.getByTestId('message-row').first().click();
  const tree = page.getByRole('region', { name: 'Message value' });
  await tree.getByRole('group', { name: 'Fields of $.a.b', exact: true }).waitFor();
  await tree.getByRole('button', { name: 'Expand $.a.b.c', exact: true }).waitFor();
  assert.equal(await tree.getByRole('group', { name: 'Fields of $.a.b.c', exact: true }).count(), 0);
  await tree.getByText('… 101 more (see Raw)').waitFor();
  assert.equal(await tree.getByRole('group', { name: 'Fields of $.list', exact: true }).locator('> div').count(), 500);

  await page.getByRole('button', { name: 'Expand all' }).click();
  await tree.getByRole('group', { name: 'Fields of $.a.b.c', exact: true }).waitFor();
  assert.match(
    (await tree.getByRole('group', { name: 'Fields of $.a.b.c', exact: true }).textContent()) ?? '',
    /"d": 1/,
  );
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await tree.getByRole('button', { name: 'Expand $', exact: true }).waitFor();
  await tree.getByRole('button', { name: 'Expand $', exact: true }).click();
  await tree.getByRole('button', { name: 'Expand $["odd key"]', exact: true }).click();
  await tree.getByRole('button', { name: 'Copy path $["odd key"]["x\\"y"]', exact: true }).click();
  assert.equal(await clipboard(), '$["odd key"]["x\\"y"]');
  assert.deepEqual(await seriousViolations(page), []);

  // A key that is not JSON is shown as text, without the tree.
  await page.getByRole('tab', { name: 'Key' }).click();
  assert.equal(await page.getByLabel('Message key', { exact: true }).textContent(), 'k1');
  assert.equal(await page.getByRole('radiogroup', { name: 'Message key view' }).count(), 0);
  await page.keyboard.press('Escape');
});

test('a value that is not JSON shows as its text', async () => {
  await page.getByTestId('message-row').filter({ hasText: 'not json {' }).click();
  assert.equal(await page.getByLabel('Message value', { exact: true }).textContent(), 'not json {');
  assert.equal(await page.getByRole('radiogroup', { name: 'Message value view' }).count(), 0);
  await page.keyboard.press('Escape');
});
