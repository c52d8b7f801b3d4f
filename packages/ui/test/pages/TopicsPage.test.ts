import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { initAdmin, seriousViolations, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The Topics list in Debian's chromium against the real UI server, engine and broker (which other
 * tests share, so the list holds their topics too): the search and its count, the table scrolled to
 * its last match, a row's actions, and a topic created among many scrolled into view, then deleted.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-topics');
// Names of its own (the engine's weir_* topics begin with the engine's topic prefix).
const tag = `ui-topics-${randomBytes(4).toString('hex')}`;
const names = Array.from({ length: 40 }, (_, i) => `${tag}-t${String(i).padStart(2, '0')}`);
const password = 'grace-password-1';

const nav = (label: string) =>
  page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();
const table = () => page.getByRole('table', { name: 'Topics' });
const search = () => page.getByRole('textbox', { name: 'Search topics' });
/** The count under the list, once it reads `<shown> of <total> topics`: the total. */
async function countShowing(shown: number): Promise<number> {
  const count = page.getByTestId('topic-count').filter({ hasText: new RegExp(`^${shown} of \\d+ topics$`) });
  await count.waitFor();
  return Number(/of (\d+)/.exec((await count.textContent()) ?? '')![1]);
}
/** The names in the first column of the rows the table shows, in order. */
const shownNames = () =>
  table().locator('[role=row]:not([aria-rowindex="1"]) [role=cell]:first-child').allTextContents();

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  ctx = await c.context('light');
  page = await ctx.newPage();
  assert.equal(await initAdmin(page, password), 201);
  const statuses = await page.evaluate(
    async ({ names, password }) => {
      const login = await fetch('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'grace', password }),
      });
      const { access_token } = (await login.json()) as { access_token: string };
      const statuses: number[] = [];
      for (let i = 0; i < names.length; i += 10)
        for (const res of await Promise.all(
          names.slice(i, i + 10).map((name) =>
            fetch('/api/topics', {
              method: 'POST',
              headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name, numberOfPartitions: 1, replicationFactor: 1 }),
            }),
          ),
        ))
          statuses.push(res.status);
      return statuses;
    },
    { names, password },
  );
  assert.deepEqual(
    statuses,
    names.map(() => 201),
  );
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
});

test('the search narrows the list and the count says how many of all topics it shows; the table scrolls to the last match', async () => {
  await nav('Topics');
  await search().fill(tag);
  const total = await countShowing(40);
  assert.ok(total > 40, `${total} topics in all`);
  const first = await shownNames();
  assert.deepEqual(first, names.slice(0, first.length));
  // The table scrolled to its end shows the last of the 40.
  await table().evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await table().getByRole('cell', { name: names[39], exact: true }).waitFor();
  assert.equal((await shownNames()).at(-1), names[39]);

  await search().fill(`${tag}-t1`);
  assert.equal(await countShowing(10), total);
  assert.deepEqual(await shownNames(), names.slice(10, 20));
  await search().fill(`${tag}-nothing`);
  assert.equal(await countShowing(0), total);
  assert.deepEqual(await shownNames(), []);
  await search().fill(`${tag}-t2`);
  await countShowing(10);
  // Away from the navigation link clicked: its hover colours are the shell's, checked elsewhere.
  await page.mouse.move(900, 880);
  assert.deepEqual(await seriousViolations(page), []);
});

test("a row's actions: Describe shows the topic's partitions and settings, Messages opens the browser on it, the name its page", async () => {
  const name = names[5]!;
  await nav('Topics');
  await search().fill(name);
  await countShowing(1);
  await page.getByRole('button', { name: `Describe ${name}` }).click();
  const drawer = page.getByRole('dialog', { name: `Topic ${name}` });
  await drawer.getByText('Partitions: 1 · Replication factor: 1').waitFor();
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: `Messages of ${name}` }).click();
  await page.getByRole('heading', { name: 'Messages', exact: true }).waitFor();
  assert.equal(new URL(page.url()).search, `?topic=${name}`);

  await nav('Topics');
  await search().fill(name);
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name: `Topic ${name}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/topics/${name}`);
});

test('a topic created in the dialog is scrolled into view among the others; deleted once its name is typed', async () => {
  const name = `${tag}-zz-new`;
  await nav('Topics');
  // Every topic listed (the 40 of this test sort before the new one: far below the first rows).
  await page
    .getByTestId('topic-count')
    .filter({ hasText: /^([1-9]\d*) of \1 topics$/ })
    .waitFor();
  await page.getByRole('button', { name: 'Create topic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create topic' });
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  const cell = table().getByRole('cell', { name, exact: true });
  await cell.waitFor();
  // In the table's visible box, not only in the page: the table was scrolled to it.
  const [box, cellBox] = [await table().boundingBox(), await cell.boundingBox()];
  assert.ok(box && cellBox && cellBox.y >= box.y && cellBox.y + cellBox.height <= box.y + box.height, 'in view');

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete topic ${name}` });
  await confirm.getByRole('textbox', { name: 'Topic name' }).fill(name);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await cell.waitFor({ state: 'detached' });
  await search().fill(name);
  await countShowing(0);
});
