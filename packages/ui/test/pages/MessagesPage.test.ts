import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { testBootstrap } from '@weir/test-helpers/test-node';
import { apiAs, initAdmin, seriousViolations, shoot, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The message browser in Debian's chromium against the real UI server, engine and broker: a read
 * that completes when it has the topic's messages, the JSON tree with copy, the JSON path and header
 * searches, the time picker, produce beside the table (its partition and offset checked with kcat),
 * exports with parsed values, and fields masked by `weir.topics.masked-fields`.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
const engine = isolatedEngine('ui-messages');
const topic = `${engine['weir.topic.prefix']}_msgs`;
const password = 'grace-password-1';
/** What the page's clipboard holds (the tests' types have no DOM). */
const clipboard = () =>
  page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
const grace = { username: 'grace', password };
const run = promisify(execFile);

const count = (text: string) =>
  page
    .getByTestId('message-count')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout: 30_000 });

/** The value kcat (librdkafka, not Weir) reads at a partition and offset. */
async function kcatAt(partition: number, offset: number): Promise<string> {
  const args = ['-C', '-b', testBootstrap(), '-t', topic, '-p', String(partition), '-o', String(offset)];
  const { stdout } = await run('kcat', [...args, '-c', '1', '-e', '-q', '-f', '%k|%s'], { timeout: 30_000 });
  return stdout;
}

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false', 'weir.topics.masked-fields': 'password' });
  ctx = await c.context('light');
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await ctx.newPage();
  const init = await initAdmin(page, password);
  const created = await apiAs(page, grace, 'POST', '/api/topics', {
    name: topic,
    numberOfPartitions: 2,
    replicationFactor: 1,
  });
  const produced = await apiAs(page, grace, 'POST', `/api/topics/${topic}/produce`, {
    messages: [
      {
        key: 'a',
        value: '{"user":{"name":"alice","roles":["admin","ops"]},"password":"s3cret","n":1}',
        headers: { source: 'web' },
      },
      { key: 'a', value: '{"user":{"name":"bob"},"n":2}', headers: { source: 'cli' } },
      { key: 'a', value: 'plain text' },
    ],
  });
  assert.deepEqual([init, created.status, produced.status], [201, 201, 201]);
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
});

test('a read says COMPLETED as soon as it has the messages the topic held, not at its timeout', async () => {
  await page.goto(`/messages?topic=${topic}`);
  const started = Date.now();
  await page.getByRole('button', { name: 'Read' }).click();
  await page.getByTestId('consume-status').filter({ hasText: 'COMPLETED' }).waitFor();
  const took = Date.now() - started;
  assert.ok(took < 5000, `COMPLETED after ${took} ms`);
  assert.equal(await page.getByTestId('message-count').textContent(), '3 of 3 messages');
  // The value as the table shows it: masked by the engine.
  const first = (await page.getByTestId('message-row').first().textContent()) ?? '';
  assert.match(first, /"password":"\*\*\*"/);
  assert.doesNotMatch(first, /s3cret/);
});

test('the JSON tree folds, and copies a path or a value', async () => {
  await page.getByTestId('message-row').filter({ hasText: 'alice' }).click();
  const tree = page.getByRole('region', { name: 'Message value' });
  await tree.waitFor();
  const fields = tree.getByRole('group', { name: 'Fields of $.user', exact: true });
  assert.match((await fields.textContent()) ?? '', /"name":\s*"alice"/);
  assert.match((await tree.textContent()) ?? '', /"password":\s*"\*\*\*"/);
  await tree.getByRole('button', { name: 'Collapse $.user', exact: true }).click();
  await fields.waitFor({ state: 'detached' });
  await tree.getByRole('button', { name: 'Expand $.user', exact: true }).click();
  await fields.waitFor();

  await tree.getByRole('button', { name: 'Copy path $.user.roles[1]', exact: true }).click();
  await page.getByText('Copied $.user.roles[1]').waitFor();
  assert.equal(await clipboard(), '$.user.roles[1]');
  await tree.getByRole('button', { name: 'Copy value of $.user.roles', exact: true }).click();
  await page.getByText('Copied the value of $.user.roles').waitFor();
  assert.deepEqual(JSON.parse(await clipboard()), ['admin', 'ops']);
  await tree.getByRole('button', { name: 'Copy value of $.user.name', exact: true }).click();
  await page.getByText('Copied the value of $.user.name').waitFor();
  assert.equal(await clipboard(), 'alice', 'a string without quotes');

  await page.getByRole('button', { name: 'Collapse all' }).click();
  await tree.getByRole('button', { name: 'Expand $', exact: true }).waitFor();
  assert.equal(await tree.getByRole('group').count(), 0);
  await page.getByRole('radiogroup', { name: 'Message value view' }).locator('label', { hasText: /^Raw$/ }).click();
  assert.equal(
    await page.getByLabel('Message value', { exact: true }).textContent(),
    '{"user":{"name":"alice","roles":["admin","ops"]},"password":"***","n":1}',
  );
  await shoot(page, 'messages-json-tree-light');
  assert.deepEqual(await seriousViolations(page), []);
  await page.keyboard.press('Escape');
});

test('search by JSON path and by header; a bad path says where', async () => {
  await page.locator('label', { hasText: /^JSON path$/ }).click();
  const path = page.getByRole('textbox', { name: 'JSON path filter' });
  await path.fill('$.user.name=alice');
  await count('1 of 3 messages');
  assert.match((await page.getByTestId('message-row').first().textContent()) ?? '', /alice/);
  await path.fill('$.n');
  await count('2 of 3 messages');
  await path.fill('$.user..name');
  await page.getByRole('alert').filter({ hasText: "the path '$.user..name' is not valid at character 7" }).waitFor();
  await count('0 of 3 messages');

  await page.locator('label', { hasText: /^Header$/ }).click();
  const header = page.getByRole('textbox', { name: 'Header filter' });
  await header.fill('source=cli');
  await count('1 of 3 messages');
  assert.match((await page.getByTestId('message-row').first().textContent()) ?? '', /bob/);
  await header.fill('SOURCE');
  await count('2 of 3 messages');
  await header.fill('');
  await count('3 of 3 messages');
});

test('the time picker: a preset reads from 15 minutes ago; a time in the future reads nothing', async () => {
  await page.getByRole('combobox', { name: 'Start at', exact: true }).click();
  await page.getByRole('option', { name: 'Time' }).click();
  const from = page.getByLabel('From (your local time)');
  await page.getByRole('button', { name: '15 min ago' }).click();
  const value = await from.inputValue();
  assert.match(value, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  assert.ok(Math.abs(new Date(value).getTime() - (Date.now() - 15 * 60_000)) < 60_000, value);
  await page.getByText(new Date(value).toISOString()).waitFor();
  await page.getByRole('button', { name: 'Read' }).click();
  await page.getByTestId('consume-status').filter({ hasText: 'COMPLETED' }).waitFor();
  await count('3 of 3 messages');

  await from.fill('2099-01-01T00:00:00');
  await page.getByRole('button', { name: 'Read' }).click();
  await count('0 of 0 messages');
  await page.getByTestId('consume-status').filter({ hasText: 'COMPLETED' }).waitFor();
});

test('produce beside the table, above the fold: its result names the partition and offset kcat finds it at', async () => {
  const table = await page.getByTestId('message-scroller').boundingBox();
  const panel = await page.getByTestId('produce-panel').boundingBox();
  assert.ok(table && panel);
  assert.ok(panel.x >= table.x + table.width - 1, `panel at x ${panel.x}, table ends at ${table.x + table.width}`);
  assert.ok(panel.y < 900, `panel top at ${panel.y}`);

  const panelLocator = page.getByTestId('produce-panel');
  await panelLocator.getByLabel('Key').fill('k-42');
  await panelLocator.getByLabel('Value').fill('{"answer":42}');
  await panelLocator.getByRole('button', { name: 'Produce' }).click();
  const result = page.getByTestId('produce-result');
  await result.waitFor();
  const shown = (await result.textContent()) ?? '';
  const m = /^Produced to (\S+): partition (\d+), offset (\d+)$/.exec(shown);
  assert.ok(m, shown);
  assert.equal(m[1], topic);
  await page
    .getByRole('alert')
    .filter({ hasText: `Produced to ${topic}: partition ${m[2]}, offset ${m[3]}` })
    .waitFor();
  assert.equal(await kcatAt(Number(m[2]), Number(m[3])), 'k-42|{"answer":42}');
});

test('exports hold parsed values, masked as shown', async () => {
  await page.getByRole('combobox', { name: 'Start at', exact: true }).click();
  await page.getByRole('option', { name: 'Earliest' }).click();
  await page.getByRole('button', { name: 'Read' }).click();
  await count('4 of 4 messages');
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const rows = JSON.parse(await readFile((await json.path())!, 'utf8')) as { key: unknown; value: unknown }[];
  assert.deepEqual(
    rows.map((r) => r.value).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    [
      'plain text',
      { answer: 42 },
      { user: { name: 'alice', roles: ['admin', 'ops'] }, password: '***', n: 1 },
      { user: { name: 'bob' }, n: 2 },
    ],
  );
  const [ndjson] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export NDJSON' }).click(),
  ]);
  const lines = (await readFile((await ndjson.path())!, 'utf8')).trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as { value: unknown }).value),
    rows.map((r) => r.value),
  );
});
