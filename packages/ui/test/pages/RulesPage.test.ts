import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { seriousViolations, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The rules table in Debian's chromium against the real UI server and engine: ATT&CK chips are
 * technique ids only (tactics in their own column; `sigma.*` metadata and reference URLs left out),
 * the severity (the rule's own, else `sigma.level` from an earlier import, else medium), columns sorted by a header click, severity and tactic filters.
 */
let c: Console;
let page: Page;

const rule = (id: string, name: string, annotations: string[], enabled = true, more: { severity?: string } = {}) => ({
  id,
  name,
  description: '',
  pdl: `rule=${id}`,
  annotations,
  enabled,
  ...more,
});

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-rules-page'), 'weir.engine.autostart': 'false' });
  const token = await c.node.initAdmin();
  for (const r of [
    rule('ps-download', 'PowerShell download', [
      'T1059.001',
      'attack.execution',
      'G0016',
      'sigma.id=5f1d',
      'sigma.level=high',
      'sigma.reference=https://attack.mitre.org/techniques/T1003/',
    ]),
    rule('brute', 'Brute force', ['T1110'], false),
    rule('dump10', 'credential dump', ['T1003', 'sigma.level=critical']),
    rule('dump2', 'Another', ['sigma.level=high'], true, { severity: 'low' }),
  ])
    await post(c.node, token, '/api/rules', r);
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto('/rules');
  await page.getByTestId('rule-row').nth(3).waitFor();
});

after(async () => {
  await c?.stop();
});

/** The table as the user reads it: the headers, then each row's cells. */
async function table(p: Page): Promise<string[][]> {
  const head = await p.getByRole('table', { name: 'Rules' }).getByRole('columnheader').allTextContents();
  const rows = await p
    .getByTestId('rule-row')
    .evaluateAll((rs) => rs.map((r) => [...r.querySelectorAll('[role=cell]')].map((c) => c.textContent ?? '')));
  return [head, ...rows];
}
const ids = async (p: Page) => (await table(p)).slice(1).map((r) => r[1]);

/** A Select by its label. */
const select = (p: Page, label: string) =>
  p
    .getByRole('combobox', { name: label, exact: true })
    .or(p.getByRole('textbox', { name: label, exact: true }))
    .first();

async function choose(p: Page, label: string, option: string): Promise<void> {
  await select(p, label).click();
  await p.getByRole('option', { name: option, exact: true }).click();
}

test('a row: severity, alert counts, technique ids as ATT&CK chips with names, tactics as tactics; no sigma.* or URL', async () => {
  // the counts come from the nodes' metrics, read a moment after the rules
  // a function, not a string: the console's CSP refuses eval, which a string predicate needs when it polls
  await page.waitForFunction(
    () =>
      (
        globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
      ).document.querySelector('[data-testid=rule-row] [role=cell]:nth-child(5)')?.textContent !== '',
  );
  assert.deepEqual(await table(page), [
    ['Enabled', 'Id', 'Name', 'Severity', 'Alerts', 'Suppressed', 'ATT&CK', 'Tactics', 'PDL'],
    [
      '',
      'ps-download',
      'PowerShell download',
      'high',
      '0',
      '0',
      'T1059.001 Command and Scripting Interpreter: PowerShell',
      'Execution',
      'rule=ps-download',
    ],
    ['', 'brute', 'Brute force', 'medium', '0', '0', 'T1110 Brute Force', 'Credential Access', 'rule=brute'],
    [
      '',
      'dump10',
      'credential dump',
      'critical',
      '0',
      '0',
      'T1003 OS Credential Dumping',
      'Credential Access',
      'rule=dump10',
    ],
    ['', 'dump2', 'Another', 'low', '0', '0', '', '', 'rule=dump2'],
  ]);
  assert.deepEqual(await seriousViolations(page), []);
});

test('a header click sorts by its column (aria-sort says how); a second click reverses', async () => {
  const header = (name: string) => page.getByRole('columnheader', { name });
  await page.getByRole('button', { name: 'Id', exact: true }).click();
  assert.equal(await header('Id').getAttribute('aria-sort'), 'ascending');
  assert.equal(await header('Name').getAttribute('aria-sort'), 'none');
  // Ids compare as people read them: dump2 before dump10.
  assert.deepEqual(await ids(page), ['brute', 'dump2', 'dump10', 'ps-download']);
  await page.getByRole('button', { name: 'Id', exact: true }).click();
  assert.equal(await header('Id').getAttribute('aria-sort'), 'descending');
  assert.deepEqual(await ids(page), ['ps-download', 'dump10', 'dump2', 'brute']);

  // Names ignore case.
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  assert.deepEqual(await ids(page), ['dump2', 'brute', 'dump10', 'ps-download']);
  // Disabled first, then the enabled ones in id order.
  await page.getByRole('button', { name: 'Enabled', exact: true }).click();
  assert.deepEqual(await ids(page), ['brute', 'dump2', 'dump10', 'ps-download']);
  // Severity: ascending first (none, then low … critical); a second click puts critical first.
  await page.getByRole('button', { name: 'Severity', exact: true }).click();
  assert.deepEqual(await ids(page), ['dump2', 'brute', 'ps-download', 'dump10']);
  await page.getByRole('button', { name: 'Severity', exact: true }).click();
  assert.equal(await header('Severity').getAttribute('aria-sort'), 'descending');
  assert.deepEqual(await ids(page), ['dump10', 'ps-download', 'brute', 'dump2']);
});

test('the severity and tactic filters, alone and together with the search', async () => {
  const count = () => page.getByTestId('rule-count').textContent();
  await choose(page, 'Severity', 'high');
  assert.deepEqual(await ids(page), ['ps-download']);
  assert.equal(await count(), '1 of 4 rules');
  await choose(page, 'Severity', 'medium');
  assert.deepEqual(await ids(page), ['brute']);
  await choose(page, 'Severity', 'low');
  assert.deepEqual(await ids(page), ['dump2']);
  await choose(page, 'Severity', 'medium');

  await choose(page, 'Tactic', 'Credential Access');
  assert.deepEqual(await ids(page), ['brute']);
  await page.getByRole('button', { name: 'Clear Severity' }).click();
  await page.getByTestId('rule-row').nth(1).waitFor();
  // Severity cleared: the tactic alone (sorted by severity, critical first, from the test before).
  assert.deepEqual(await ids(page), ['dump10', 'brute']);
  await page.getByRole('textbox', { name: 'Search rules' }).fill('dump');
  await page.getByText('1 of 4 rules', { exact: true }).waitFor();
  assert.deepEqual(await ids(page), ['dump10']);
});
