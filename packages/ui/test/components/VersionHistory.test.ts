import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import {
  buttonsMatching,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  tableRows,
  type Console,
} from '../helpers/console.ts';

/**
 * The rule editor's History tab in Debian's chromium against the real UI server and engine
 * (docs/detection-as-code.md, "Versions"): a rule made and changed in the editor with change notes,
 * its versions listed newest first with who and the notes, the two compared side by side, a rollback
 * to version 1 restoring the editor's PDL and adding version 3; a `user` reads the history, no rollback.
 */
let c: Console;
let token: string;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-version-history'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['rule-history-light']);
});

interface Version {
  version: number;
  time: string;
  user: string | null;
  action: string;
  note?: string;
  rollbackOf?: number;
}
async function versions(): Promise<Version[]> {
  const res = await c.node.call('GET', '/api/rules/root-login/versions', { token });
  assert.equal(res.status, 200);
  return res.body as Version[];
}

/** Replaces the editor's PDL with `lines`, typed one by one (each completion list closed). */
async function typePdl(p: Page, lines: readonly string[]): Promise<void> {
  await p.getByRole('textbox', { name: 'PDL query' }).click();
  await p.keyboard.press('Control+A');
  await p.keyboard.press('Delete');
  for (const [i, line] of lines.entries()) {
    if (i > 0) await p.keyboard.press('Enter');
    await p.keyboard.type(line);
    await p.keyboard.press('Escape');
  }
  await p.getByTestId('pdl-status').getByText('Valid PDL').waitFor();
}

async function editorLines(p: Page): Promise<string[]> {
  return p.locator('.cm-content .cm-line').allTextContents();
}

const v1 = ['user="root"', 'AND action="login"'];
const v2 = ['user="root"', 'AND action="su"'];

test('made and changed with notes; the history, the side-by-side diff, a rollback to version 1', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto('/rules/new');
  await page.getByRole('textbox', { name: /^Id/ }).fill('root-login');
  await page.getByRole('textbox', { name: /^Name/ }).fill('Root login');
  await typePdl(page, v1);
  // A new rule has no history yet: no tabs.
  assert.equal(await page.getByRole('tab').count(), 0);
  await page.getByRole('textbox', { name: /^Change note/ }).fill('first cut');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await page.getByRole('heading', { name: 'Rule root-login', exact: true }).waitFor();

  // The PDL's second line and the severity changed, saved with a note.
  await page.getByRole('tab', { name: 'Rule', exact: true }).waitFor();
  await page.locator('.cm-content .cm-line').nth(1).waitFor();
  await typePdl(page, v2);
  const severity = page.getByRole('textbox', { name: 'Severity' }).or(page.getByRole('combobox', { name: 'Severity' }));
  await severity.first().click();
  await page.getByRole('option', { name: 'high', exact: true }).click();
  const note = page.getByRole('textbox', { name: /^Change note/ });
  await note.fill('su, not login (ticket 4711)');
  // The first save's toast gone first, so that the one awaited below is the second save's.
  const savedToast = page.getByText('Rule root-login saved', { exact: true });
  await savedToast.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Save rule' }).click();
  await savedToast.waitFor();
  assert.equal(await note.inputValue(), '');

  const [first, second] = await versions();
  assert.deepEqual(
    [first, second].map((v) => [v!.version, v!.user, v!.action, v!.note]),
    [
      [1, 'admin', 'create', 'first cut'],
      [2, 'admin', 'update', 'su, not login (ticket 4711)'],
    ],
  );

  await page.getByRole('tab', { name: 'History', exact: true }).click();
  await page.getByTestId('version-row').nth(1).waitFor();
  assert.equal(
    await page.getByTestId('version-count').textContent(),
    '2 versions, newest first. Tick two to compare them.',
  );
  assert.deepEqual(await tableRows(page, 'Versions'), [
    ['', '2', second!.time, 'admin', 'update', 'su, not login (ticket 4711)', ''],
    ['', '1', first!.time, 'admin', 'create', 'first cut', 'Roll back'],
  ]);
  assert.equal(await page.getByRole('checkbox', { name: 'Compare version 1' }).isChecked(), true);
  assert.equal(await page.getByRole('checkbox', { name: 'Compare version 2' }).isChecked(), true);

  // The newest two compared: the PDL side by side, the changed line marked in words too; the severity.
  await page.getByRole('heading', { name: 'Version 1 → version 2' }).waitFor();
  await page.getByTestId('pdl-diff-row').nth(1).waitFor();
  assert.deepEqual(await tableRows(page, 'PDL of version 1 and version 2'), [
    ['1', 'user="root"', '1', 'user="root"'],
    ['2', '− removed: AND action="login"', '2', '+ added: AND action="su"'],
  ]);
  assert.deepEqual(await tableRows(page, 'Fields changed from version 1 to version 2'), [
    ['severity', '"medium"', '"high"'],
  ]);
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'rule-history-light');

  // Roll back to version 1, with a note.
  await page.getByRole('button', { name: 'Roll back to version 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll back to version 1' });
  await dialog.getByRole('textbox', { name: /^Change note/ }).fill('su alerts were noise');
  assert.deepEqual(await seriousViolations(page), []);
  await dialog.getByRole('button', { name: 'Roll back', exact: true }).click();
  await page.getByText('Rule root-login rolled back to version 1', { exact: true }).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('version-row').nth(2).waitFor();
  const third = (await versions())[2]!;
  assert.deepEqual([third.version, third.user, third.action, third.rollbackOf], [3, 'admin', 'update', 1]);
  assert.deepEqual((await tableRows(page, 'Versions'))[0], [
    '',
    '3',
    third.time,
    'admin',
    'rollback to version 1',
    'su alerts were noise',
    '',
  ]);
  // The newest two again: version 3 undid version 2.
  await page.getByRole('heading', { name: 'Version 2 → version 3' }).waitFor();
  await page.getByTestId('pdl-diff-row').nth(1).waitFor();
  assert.deepEqual((await tableRows(page, 'PDL of version 2 and version 3'))[1], [
    '2',
    '− removed: AND action="su"',
    '2',
    '+ added: AND action="login"',
  ]);

  // The editor holds version 1 again, as the API does.
  await page.getByRole('tab', { name: 'Rule', exact: true }).click();
  assert.deepEqual(await editorLines(page), v1);
  assert.equal(await severity.first().inputValue(), 'medium');
  const stored = await c.node.call('GET', '/api/rules/root-login', { token });
  assert.equal((stored.body as { pdl: string }).pdl, v1.join('\n'));
  await page.context().close();
});

test('a user reads the history and the diff; no Roll back', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'uma', 'uma-pw');
  await page.goto('/rules/root-login');
  await page.getByRole('tab', { name: 'History', exact: true }).click();
  await page.getByTestId('version-row').nth(2).waitFor();
  assert.deepEqual(
    (await tableRows(page, 'Versions')).map((r) => [r[1], r[4], r[5]]),
    [
      ['3', 'rollback to version 1', 'su alerts were noise'],
      ['2', 'update', 'su, not login (ticket 4711)'],
      ['1', 'create', 'first cut'],
    ],
  );
  // Another pair picked: version 1 against 3 (3 and 2 picked; 1 replaces the older pick).
  await page.getByRole('checkbox', { name: 'Compare version 1' }).check();
  await page.getByRole('heading', { name: 'Version 1 → version 3' }).waitFor();
  await page.getByText('The two versions are the same.', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('pdl-diff').count(), 0);
  assert.deepEqual(await buttonsMatching(page, /Roll back/), []);
  assert.equal(await page.getByRole('columnheader', { name: 'Roll back' }).count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

test("a task's drawer has its History too, read only: its versions and the fields that changed", async () => {
  const task = { id: 7, name: 'parse', description: 'key=value pairs', function: 'PARSE_KV', definition: {} };
  const note = { 'x-weir-change-note': encodeURIComponent('first cut → kv') };
  assert.equal((await c.node.call('POST', '/api/tasks', { token, body: task, headers: note })).status, 201);
  const changed = { ...task, description: 'key=value pairs, quoted values kept' };
  assert.equal((await c.node.call('PUT', '/api/tasks/7', { token, body: changed })).status, 200);
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'uma', 'uma-pw');
  await page.goto('/tasks/7');
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('tab', { name: 'History', exact: true }).click();
  await drawer.getByTestId('version-row').nth(1).waitFor();
  assert.deepEqual(
    (await tableRows(page, 'Versions')).map((r) => [r[1], r[3], r[4], r[5]]),
    [
      ['2', 'admin', 'update', ''],
      ['1', 'admin', 'create', 'first cut → kv'],
    ],
  );
  await drawer.getByRole('heading', { name: 'Version 1 → version 2' }).waitFor();
  await drawer.getByTestId('field-changes').waitFor();
  assert.deepEqual(await tableRows(page, 'Fields changed from version 1 to version 2'), [
    ['description', '"key=value pairs"', '"key=value pairs, quoted values kept"'],
  ]);
  assert.deepEqual(await buttonsMatching(drawer, /Roll back/), []);
  assert.deepEqual(await seriousViolations(page), []);
  // The definition is one click back.
  await drawer.getByRole('tab', { name: 'Definition', exact: true }).click();
  await drawer.getByRole('textbox', { name: /^Name/ }).waitFor();
  await page.context().close();
});
