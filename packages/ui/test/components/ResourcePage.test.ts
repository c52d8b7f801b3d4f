import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { multipartBody } from '@weir/test-helpers/multipart';
import { buttonsMatching, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The resource pages' one scaffolding (components/ResourcePage.tsx), whose words and paths come from
 * the kinds registry, on the Tasks, Pipelines, Topologies and Lookups pages in Debian's chromium
 * against the real UI server and engine: heading, columns, rows and count; a link opening a record
 * or saying there is none; new, saved, deleted; and the `user` role, who only views.
 */
let c: Console;
let page: Page;
let token: string;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-resource-page'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await post(c.node, token, '/api/topics', { name: 'rp-input', numberOfPartitions: 1, replicationFactor: 1 });
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'parse',
    description: 'key=value pairs',
    function: 'PARSE_KV',
    definition: {},
  });
  await post(c.node, token, '/api/tasks', {
    id: 2,
    name: 'filter',
    description: '',
    function: 'PARSE_CEF',
    definition: {},
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'main', description: '', tasks: [1, 2] });
  await post(c.node, token, '/api/topologies', {
    id: 4,
    name: 'flow',
    description: '',
    pipelines: [1],
    enabled: false,
    group: 'default',
    input: { name: 'rp-input' },
    output: [],
  });
  const { body, contentType } = multipartBody([
    { name: 'id', value: 'hosts' },
    { name: 'file', value: 'host,owner\nweb1,ada\nweb2,bob\n', filename: 'hosts.csv', contentType: 'text/csv' },
  ]);
  const lookup = await c.node.call('POST', '/api/lookups', { token, body, contentType });
  assert.equal(lookup.status, 201, lookup.text);
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

/** The page's table as the user reads it: the header row, then each record's row, cell by cell. */
async function table(p: Page, rowTestId: string): Promise<string[][]> {
  await p.getByTestId(rowTestId).first().waitFor();
  const head = await p.locator('table').first().locator('thead th').allTextContents();
  const rows = await p
    .getByTestId(rowTestId)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return [head, ...rows];
}

test('each kind: its heading, Id then its own columns then Actions, a row a record, the count', async () => {
  const pages = [
    [
      '/tasks',
      'Tasks',
      'task-row',
      [
        ['Id', 'Name', 'Function', 'Description', 'Actions'],
        ['1', 'parse', 'PARSE_KV', 'key=value pairs', 'EditDelete'],
        ['2', 'filter', 'PARSE_CEF', '', 'EditDelete'],
      ],
      '2 tasks',
    ],
    [
      '/pipelines',
      'Pipelines',
      'pipeline-row',
      [
        ['Id', 'Name', 'Tasks, in order', 'Actions'],
        ['1', 'main', '1 · parse (PARSE_KV) → 2 · filter (PARSE_CEF)', 'EditDelete'],
      ],
      '1 pipeline',
    ],
    [
      '/topologies',
      'Topologies',
      'topology-row',
      [
        ['Id', 'Name', 'Input', 'Pipelines', 'Outputs', 'State', 'Actions'],
        ['4', 'flow', 'rp-input', '1', '', 'disabled', 'GraphEditDelete'],
      ],
      'Topology 4 · flow',
    ],
    [
      '/lookups',
      'Lookups',
      'lookup-row',
      [
        ['Id', 'Rows', 'Columns', 'Actions'],
        ['hosts', '2', 'host, owner', 'ViewDownloadReplaceDelete'],
      ],
      '1 lookup',
    ],
  ] as const;
  for (const [url, heading, rowTestId, rows, footer] of pages) {
    await page.goto(url);
    await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
    assert.deepEqual(await table(page, rowTestId), rows, url);
    await page.getByText(footer, { exact: true }).waitFor();
  }
  // A kind the registry gives no schema (lookups, file uploads) is viewed, never edited: no New button either.
  assert.deepEqual(await buttonsMatching(page, /^(New lookup|Edit)$/), []);
});

test('a link to a record opens it in the drawer; to none, the page says so; closing goes back to the list', async () => {
  await page.goto('/pipelines/1');
  const drawer = page.getByRole('dialog', { name: 'Pipeline 1' });
  assert.equal(await drawer.getByRole('textbox', { name: /^Name/ }).inputValue(), 'main');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await page.waitForURL((u) => u.pathname === '/pipelines');

  await page.goto('/lookups/hosts');
  await page.getByRole('dialog', { name: 'Lookup hosts' }).getByRole('table', { name: 'Lookup hosts' }).waitFor();
  await page.keyboard.press('Escape');
  await page.waitForURL((u) => u.pathname === '/lookups');

  await page.goto('/tasks/9');
  const alert = page.getByRole('alert').filter({ hasText: 'There is no task 9.' });
  await alert.waitFor();
  await alert.getByRole('button').click();
  await page.waitForURL((u) => u.pathname === '/tasks');
  await alert.waitFor({ state: 'hidden' });
});

test('new: the next id, saved with its toast and kept open; delete asks, naming the record, then the row is gone', async () => {
  await page.goto('/tasks');
  await page.getByRole('button', { name: 'New task' }).click();
  const drawer = page.getByRole('dialog', { name: 'New task' });
  assert.equal(await drawer.getByRole('textbox', { name: /^Id/ }).inputValue(), '3');
  await drawer.getByRole('textbox', { name: /^Name/ }).fill('third');
  await drawer.getByRole('button', { name: 'Save task' }).click();
  const toast = page.getByText('Task 3 saved', { exact: true });
  await toast.waitFor();
  const saved = page.getByRole('dialog', { name: 'Task 3' });
  await saved.waitFor();
  // The toast leaves the drawer's header (title, close button) free.
  const [t, close] = [await toast.boundingBox(), await saved.getByRole('button', { name: 'Close' }).boundingBox()];
  assert.ok(
    t && close && t.y > close.y + close.height,
    `toast ${JSON.stringify(t)} below close ${JSON.stringify(close)}`,
  );
  await page.keyboard.press('Escape');
  await page.getByText('3 tasks', { exact: true }).waitFor();

  await page.getByRole('button', { name: 'Delete task 3' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete task 3 (third)' });
  await confirm.getByText('Delete task 3 (third)? This cannot be undone.').waitFor();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await confirm.waitFor({ state: 'hidden' });
  await page.getByText('2 tasks', { exact: true }).waitFor();
  assert.equal((await c.node.call('GET', '/api/tasks/3', { token })).status, 404);
});

test('a delete the engine refuses keeps the dialog open with its reason; closed, the row stays', async () => {
  await page.goto('/tasks');
  await page.getByText('2 tasks', { exact: true }).waitFor();
  // Task 2 deleted behind the page's back: the page still lists it, the engine no longer has it.
  assert.equal((await c.node.call('DELETE', '/api/tasks/2', { token })).status, 204);
  const again = await c.node.call('DELETE', '/api/tasks/2', { token });
  assert.equal(again.status, 404);
  await page.getByRole('button', { name: 'Delete task 2' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete task 2 (filter)' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  const reason = confirm.getByRole('alert');
  await reason.waitFor();
  assert.equal(await reason.textContent(), (again.body as { debugMessage: string }).debugMessage);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  await page.getByTestId('task-row').filter({ hasText: 'filter' }).waitFor();
});

test('the user role views each record: a read-only note, View buttons, no New, Edit, Delete or Save', async () => {
  await c.node.createUser(token, 'uma');
  const p = await (await c.context('light')).newPage();
  await signIn(p, 'uma', 'uma-pw');
  for (const [url, view, title, kind] of [
    ['/tasks', 'View task 1', 'Task 1', 'tasks'],
    ['/pipelines', 'View pipeline 1', 'Pipeline 1', 'pipelines'],
    ['/topologies', 'View topology 4', 'Topology 4', 'topologies'],
    ['/lookups', 'View lookup hosts', 'Lookup hosts', 'lookups'],
  ] as const) {
    await p.goto(url);
    assert.equal(
      await p.getByRole('note').textContent(),
      `Read onlyYour role (user) can view ${kind}, not change them; an admin can.`,
      url,
    );
    await p.getByRole('button', { name: view }).click();
    const drawer = p.getByRole('dialog', { name: title });
    await drawer.waitFor();
    assert.deepEqual(await buttonsMatching(p, /^(New .*|Edit|Delete|Replace|Choose a file|Save .*)$/), [], url);
    await p.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  }
  await p.goto('/configuration');
  await p
    .getByRole('note')
    .filter({ hasText: 'Your role (user) can export the configuration, not import one; an admin can.' })
    .waitFor();
  // An admin, who may change them, sees no such note.
  await page.goto('/tasks');
  await page.getByTestId('task-row').first().waitFor();
  assert.equal(await page.getByRole('note').count(), 0);
});
