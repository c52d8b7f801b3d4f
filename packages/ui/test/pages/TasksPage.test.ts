import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The task form's APPLY_RULES `rules` field in Debian's chromium against the real UI server and
 * engine: rule ids are picked from the existing rules; typed text that names no rule is not added;
 * a task naming a missing rule (saved through the API, which accepts it) is refused by the console
 * with the missing ids named; the task test shows the API's warnings.
 */
let c: Console;
let page: Page;
let token: string;

const rule = (id: string) => ({ id, name: id, description: '', pdl: `rule=${id}`, annotations: [], enabled: true });

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-tasks-page'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await post(c.node, token, '/api/rules', rule('failed-logon'));
  await post(c.node, token, '/api/rules', rule('brute-force'));
  // An old task: the API accepts a rule id that names no rule, as the original product did.
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'old',
    description: '',
    function: 'APPLY_RULES',
    definition: { rules: ['failed', 'brute-force'] },
  });
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

/** A form field by its label: a text input, or the input of a Select or TagsInput. */
const field = (where: Locator, label: RegExp) =>
  where
    .getByRole('combobox', { name: label })
    .or(where.getByRole('textbox', { name: label }))
    .first();
const rulesField = (drawer: Locator) => field(drawer, /^rules/);

async function storedRules(id: number): Promise<unknown> {
  const res = await c.node.call('GET', `/api/tasks/${id}`, { token });
  assert.equal(res.status, 200, res.text);
  return (res.body as { definition: { rules?: unknown } }).definition.rules;
}

test('a new APPLY_RULES task: typed "failed" + Enter adds nothing and says why; a rule picked from the list is saved', async () => {
  await page.goto('/tasks');
  await page.getByRole('button', { name: 'New task' }).click();
  const drawer = page.getByRole('dialog', { name: 'New task' });
  await drawer.getByRole('textbox', { name: /^Name/ }).fill('detect');
  await field(drawer, /^Function/).click();
  await page.getByRole('option', { name: 'APPLY_RULES', exact: true }).click();

  const rules = rulesField(drawer);
  await rules.fill('failed');
  // The list offers the rule whose id contains the text…
  await page.getByRole('option', { name: 'failed-logon', exact: true }).waitFor();
  // …but Enter on the typed text adds no `failed` rule.
  await rules.press('Enter');
  await drawer.getByText('No rule has the id `failed`: pick a rule from the list', { exact: true }).waitFor();
  assert.deepEqual(await pills(drawer), []);

  await rules.fill('failed-l');
  await page.getByRole('option', { name: 'failed-logon', exact: true }).click();
  assert.deepEqual(await pills(drawer), ['failed-logon']);
  assert.equal(await drawer.getByText('No rule has the id', { exact: false }).count(), 0);

  await drawer.getByRole('button', { name: 'Save task' }).click();
  await page.getByRole('dialog', { name: 'Task 2' }).waitFor();
  assert.deepEqual(await storedRules(2), ['failed-logon']);
  await page.keyboard.press('Escape');
});

test('an old task naming a missing rule: the field names it, the save is refused, the task test shows the warning', async () => {
  await page.goto('/tasks/1');
  const drawer = page.getByRole('dialog', { name: 'Task 1' });
  await drawer.locator('.mantine-TagsInput-pill').first().waitFor();
  assert.deepEqual(await pills(drawer), ['failed', 'brute-force']);
  await drawer.getByText('The rule `failed` does not exist: remove it or pick another', { exact: true }).waitFor();

  await drawer.getByRole('textbox', { name: /^Name/ }).fill('old, renamed');
  await drawer.getByRole('button', { name: 'Save task' }).click();
  const refusal = drawer.getByRole('alert').filter({ hasText: 'The task was refused' });
  await refusal.waitFor();
  assert.match(
    (await refusal.textContent()) ?? '',
    /definition\.rules: the rule `failed` does not exist\. Pick existing rules \(the engine skips a rule that does not exist\)\./,
  );
  const stored = await c.node.call('GET', '/api/tasks/1', { token });
  assert.equal((stored.body as { name: string }).name, 'old', 'nothing was saved');

  // The task test runs the stored task: the API names the skipped rule beside the result.
  await drawer.getByLabel('Event (raw text, or a JSON event)').fill('{"rule":"nothing"}');
  await drawer.getByRole('button', { name: 'Run task test' }).click();
  const warnings = drawer.getByTestId('task-test-warnings');
  await warnings.waitFor();
  assert.equal(await warnings.getByText('rule `failed` does not exist', { exact: true }).count(), 1);
  assert.equal((await drawer.getByTestId('task-test-result').textContent())?.trim(), 'null');

  // The missing rule removed (the last pill first: Backspace twice removes brute-force then failed), a rule picked: saved.
  const rules = rulesField(drawer);
  await rules.click();
  await rules.press('Backspace');
  await rules.press('Backspace');
  assert.deepEqual(await pills(drawer), []);
  await rules.fill('brute');
  await page.getByRole('option', { name: 'brute-force', exact: true }).click();
  await drawer.getByRole('button', { name: 'Save task' }).click();
  await page.getByText('Task 1 saved').waitFor();
  assert.equal(await refusal.count(), 0);
  assert.deepEqual(await storedRules(1), ['brute-force']);
});

/** The ids shown as pills in the drawer's `rules` field. */
async function pills(drawer: Locator): Promise<string[]> {
  return (await drawer.locator('.mantine-TagsInput-pill').allTextContents()).map((t) => t.trim());
}
