import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { apiAs, initAdmin, seriousViolations, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The Sigma metadata panel of the rule editor (docs/ui.md, "Sigma metadata"), in Debian's chromium
 * against the real UI server and engine: SigmaHQ's Xwizard rule imported through the API is shown
 * with its description as written, its technique chip, its tactics, its reference links and its
 * `sigma.*` metadata; a rule written in Weir has no panel.
 */
const xwizardFile =
  '/work/shared/data/sigma/rules/windows/process_creation/proc_creation_win_xwizard_execution_non_default_location.yml';
const xwizard = 'sigma-193d5ccd-6f59-40c6-b5b0-8e32d5ddd3d1';
let c: Console;
let ctx: BrowserContext;
let page: Page;
const password = 'grace-password-1';
const call = (method: string, url: string, body?: unknown) =>
  apiAs(page, { username: 'grace', password }, method, url, body);

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-sigma-meta'), 'weir.engine.autostart': 'false' });
  ctx = await c.context('dark');
  page = await ctx.newPage();
  assert.equal(await initAdmin(page, password), 201);
  const imported = await call('POST', '/api/import/sigma', {
    yaml: readFileSync(xwizardFile, 'utf8'),
    license: 'DRL-1.1',
  });
  assert.equal(imported.status, 200, imported.text);
  const own = {
    id: 'own',
    name: 'Own',
    description: 'Written here',
    pdl: 'user = "a"',
    annotations: ['T1110'],
    enabled: true,
  };
  assert.equal((await call('POST', '/api/rules', own)).status, 201);
  await ctx.clearCookies();
  await signIn(page, 'grace', password);
});

after(async () => {
  await c?.stop();
});

test('an imported rule: the description as written, techniques, tactics, references as links, the sigma.* metadata', async () => {
  await page.goto(`/rules/${xwizard}`);
  await page.getByRole('heading', { name: `Rule ${xwizard}`, exact: true }).waitFor();
  const panel = page.getByTestId('sigma-metadata');
  const sentences =
    'Detects the execution of Xwizard tool from a non-default directory.\n' +
    'When executed from a non-default directory, this utility can be abused in order to side load a custom version of "xwizards.dll".';
  assert.equal(await panel.getByTestId('sigma-description').innerText(), sentences);
  // The editable description keeps its line breaks too (a one-line input ran the sentences together).
  assert.ok(
    (await page.getByRole('textbox', { name: 'Description' }).inputValue()).startsWith(`${sentences}\nSigma rule "`),
  );
  assert.deepEqual(await panel.getByRole('list', { name: 'Techniques' }).getByRole('listitem').allInnerTexts(), [
    'T1574.001 Hijack Execution Flow: DLL',
  ]);
  assert.deepEqual(await panel.getByRole('list', { name: 'Tactics' }).getByRole('listitem').allInnerTexts(), [
    'Privilege Escalation',
    'Persistence',
    'Execution',
    'Stealth',
  ]);
  const links = panel.getByRole('list', { name: 'References' }).getByRole('link');
  assert.deepEqual(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [
    'https://lolbas-project.github.io/lolbas/Binaries/Xwizard/',
    'http://www.hexacorn.com/blog/2017/07/31/the-wizard-of-x-oppa-plugx-style/',
  ]);
  const metadata = await panel
    .getByRole('table', { name: 'Sigma metadata' })
    .locator('tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? '')));
  assert.deepEqual(metadata, [
    ['id', '193d5ccd-6f59-40c6-b5b0-8e32d5ddd3d1'],
    ['level', 'high'],
    ['status', 'test'],
    ['author', 'Christian Burkard (Nextron Systems)'],
    ['license', 'DRL-1.1'],
  ]);
  await page.mouse.move(900, 880);
  assert.deepEqual(await seriousViolations(page), []);
});

test('a rule written in Weir has no Sigma metadata panel', async () => {
  await page.goto('/rules/own');
  await page.getByRole('heading', { name: 'Rule own', exact: true }).waitFor();
  // the heading shows before the stored rule fills the form: wait for the description to arrive
  const description = page.getByRole('textbox', { name: 'Description' });
  await waitFor('the stored rule in the form', async () => (await description.inputValue()) === 'Written here', 10_000);
  assert.equal(await page.getByTestId('sigma-metadata').count(), 0);
});
