import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { buttonsMatching, seriousViolations, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The rule editor in Debian's chromium against the real UI server and engine: the ATT&CK picker
 * (techniques by id or name from the shipped table, an id not in it flagged, other tags kept), and
 * the `user` role: `/rules/new` refused with a notice, a rule viewed read-only with a notice.
 */
let c: Console;
let token: string;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-rule-editor'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  // The API accepts any annotation: here a retired technique id.
  await post(c.node, token, '/api/rules', {
    id: 'brute',
    name: 'Brute force',
    description: '',
    pdl: 'action="login" AND status="failed"',
    annotations: ['T1110', 'attack.t1086'],
    enabled: true,
  });
});

after(async () => {
  await c?.stop();
});

const label = 'Annotations: ATT&CK techniques and other tags';

async function pills(p: Page): Promise<string[]> {
  return (await p.locator('.mantine-TagsInput-pill').allTextContents()).map((t) => t.trim());
}

test('the ATT&CK picker: a technique found by name, an id not in the table flagged, other tags kept; a severity picked; saved', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto('/rules/brute');
  await page.getByRole('heading', { name: 'Rule brute', exact: true }).waitFor();
  const input = page.getByRole('combobox', { name: label });
  await page.locator('.mantine-TagsInput-pill').nth(1).waitFor();
  assert.deepEqual(await pills(page), ['T1110', 'attack.t1086']);
  const retired =
    '`attack.t1086` is a retired ATT&CK technique (PowerShell): it is not in MITRE ATT&CK v18.1 Enterprise';
  await page.getByText(retired, { exact: true }).waitFor();

  await input.click();
  await input.press('Backspace');
  assert.deepEqual(await pills(page), ['T1110']);
  assert.equal(await page.getByText(retired, { exact: true }).count(), 0);

  // Found by its name; the id is stored.
  await input.fill('password guess');
  await page.getByRole('option', { name: 'T1110.001 Brute Force: Password Guessing', exact: true }).click();
  assert.deepEqual(await pills(page), ['T1110', 'T1110.001']);

  await input.fill('T9999');
  await input.press('Enter');
  await page
    .getByText('`T9999` is not an ATT&CK technique in MITRE ATT&CK v18.1 Enterprise', { exact: true })
    .waitFor();
  // axe with the picker's list closed (an open list's scroll area is Mantine's, not ours).
  await input.press('Escape');
  assert.deepEqual(await seriousViolations(page), []);
  await input.press('Backspace');
  await input.fill('team-red');
  await input.press('Enter');
  assert.deepEqual(await pills(page), ['T1110', 'T1110.001', 'team-red']);
  assert.equal(await page.getByText('is not an ATT&CK technique', { exact: false }).count(), 0);

  // No severity stored: the select shows the default; a choice is saved with the rule.
  const severity = page.getByRole('textbox', { name: 'Severity' }).or(page.getByRole('combobox', { name: 'Severity' }));
  assert.equal(await severity.first().inputValue(), 'medium');
  await severity.first().click();
  await page.getByRole('option', { name: 'high', exact: true }).click();

  await page.getByRole('button', { name: 'Save rule' }).click();
  await page.getByText('Rule brute saved', { exact: true }).waitFor();
  const stored = await c.node.call('GET', '/api/rules/brute', { token });
  assert.deepEqual((stored.body as { annotations: string[] }).annotations, ['T1110', 'T1110.001', 'team-red']);
  assert.equal((stored.body as { severity?: string }).severity, 'high');
  await page.context().close();
});

test('the user role: /rules/new is refused with a notice; a rule opens read-only with a notice', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'uma', 'uma-pw');
  await page.goto('/rules/new');
  await page.getByRole('heading', { name: 'New rule', exact: true }).waitFor();
  const notice = page.getByRole('status').filter({ hasText: 'Only an admin creates rules' });
  await notice.waitFor();
  assert.equal(
    (await notice.textContent())?.trim(),
    'Only an admin creates rulesYour role (user) views and tests the rules; an admin creates and changes them.',
  );
  assert.equal(await page.getByRole('textbox', { name: /^Id/ }).count(), 0);
  assert.deepEqual(await buttonsMatching(page, /Save|Delete|New/), []);
  assert.deepEqual(await seriousViolations(page), []);

  await page.getByRole('button', { name: 'Back to rules' }).click();
  await page.getByTestId('rule-row').first().waitFor();
  await page.getByRole('link', { name: 'brute', exact: true }).click();
  await page.getByRole('heading', { name: 'Rule brute', exact: true }).waitFor();
  assert.equal(
    (await page.getByTestId('read-only-notice').textContent())?.trim(),
    'Read-only: your role (user) views and tests this rule; an admin changes it.',
  );
  assert.deepEqual(await buttonsMatching(page, /Save|Delete|New/), []);
  assert.equal(await page.getByRole('combobox', { name: label }).getAttribute('readonly'), '');
  await page.context().close();
});
