import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { seriousViolations, shoot, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The Notifiers page (docs/ui.md, "Notifiers") in Debian's chromium against the real UI server and
 * engine: an http:// address is refused with the API's message and nothing is stored; a notifier
 * made with a matcher is stored as typed, its secret never shown; an edit without a secret keeps
 * the stored one; delete; a `user` is told only admins manage notifiers.
 */
let c: Console;
let page: Page;
let token: string;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-notifiers'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

const stored = async () => (await c.node.call('GET', '/api/notifiers', { token })).body as Record<string, unknown>[];

test('a notifier made in the form: an http address refused, then stored with its matcher; the secret kept on edit', async () => {
  await page.goto('/notifiers');
  await page.getByRole('button', { name: 'New notifier' }).click();
  const form = page.getByRole('dialog', { name: 'New notifier' });
  await form.getByRole('textbox', { name: 'Id' }).fill('soc');
  await form.getByRole('textbox', { name: 'Name' }).fill('SOC pager');
  await form.getByRole('textbox', { name: 'Address' }).fill('http://hooks.example/soc');
  await form.getByLabel('Secret').fill('a-secret-of-20-chars');
  await form.getByRole('button', { name: 'Save notifier' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  assert.match(
    (await refusal.textContent()) ?? '',
    /body\.url must be an https:\/\/ URL, found 'http:\/\/hooks\.example\/soc'/,
  );
  assert.deepEqual(await stored(), []);

  await form.getByRole('textbox', { name: 'Address' }).fill('https://hooks.example/soc');
  await form
    .getByRole('textbox', { name: 'Minimum severity' })
    .or(form.getByRole('combobox', { name: 'Minimum severity' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'high', exact: true }).click();
  const techniques = form
    .getByRole('textbox', { name: 'Techniques' })
    .or(form.getByRole('combobox', { name: 'Techniques' }))
    .first();
  await techniques.fill('T1110');
  await techniques.press('Enter');
  await form.getByRole('button', { name: 'Save notifier' }).click();
  await form.waitFor({ state: 'hidden' });
  assert.deepEqual(await stored(), [
    {
      id: 'soc',
      name: 'SOC pager',
      url: 'https://hooks.example/soc',
      matcher: { minSeverity: 'high', techniques: ['T1110'] },
      rateLimitPerMinute: 60,
      enabled: true,
      secretSet: true,
    },
  ]);
  const row = page.getByTestId('notifier-row');
  assert.match((await row.textContent()) ?? '', /socSOC pagerhttps:\/\/hooks\.example\/sochigh or above · T111060on/);
  assert.equal(await page.getByText('a-secret-of-20-chars').count(), 0, 'the secret is never shown');
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'notifiers-light');

  // An edit without a secret keeps the stored one: the API still has one (secretSet) and the name changed.
  await page.getByRole('button', { name: 'Edit notifier soc' }).click();
  const edit = page.getByRole('dialog', { name: 'Notifier soc' });
  assert.equal(await edit.getByLabel('Secret').inputValue(), '');
  await edit.getByRole('textbox', { name: 'Name' }).fill('SOC pager 2');
  await edit.getByRole('button', { name: 'Save notifier' }).click();
  await edit.waitFor({ state: 'hidden' });
  const [after] = await stored();
  assert.deepEqual([after!.name, after!.secretSet], ['SOC pager 2', true]);
});

test('delete asks first; a user is told only admins manage notifiers', async () => {
  await page.getByRole('button', { name: 'Delete notifier soc' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Notifier soc deleted').waitFor();
  assert.deepEqual(await stored(), []);

  const p = await (await c.context('light')).newPage();
  await signIn(p, 'uma', 'uma-pw');
  await p.goto('/notifiers');
  await p.getByText('Only an admin manages notifiers', { exact: false }).waitFor();
  assert.equal(await p.getByRole('button', { name: 'New notifier' }).count(), 0);
  await p.context().close();
});
