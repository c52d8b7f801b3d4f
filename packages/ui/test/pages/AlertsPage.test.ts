import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { alertIdOf, produceAlerts, type AlertSpec } from '../helpers/alerts.ts';
import {
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  tableRows,
  type Console,
} from '../helpers/console.ts';

/**
 * The Alerts page (docs/ui.md, "Alerts") in Debian's chromium against the real UI server and engine,
 * its alerts written to the alerts topic with kcat: a burst of 120 alerts of one rule shown as one
 * group, the group's click filtering the list, "Load more" by cursor, a bulk acknowledge of the
 * 120, a new alert appearing live, a bulk close as false positive with a note, the overview's
 * alerts by severity, and a `user` triaging an alert in its drawer.
 */
let c: Console;
let page: Page;
let token: string;
let alertsTopic: string;

type Stored = {
  id: string;
  status: string;
  resolution: string | null;
  assignee: string | null;
  updatedBy: string | null;
  notes: { user: string; text: string }[];
};

const now = Date.now();
const burst: AlertSpec[] = Array.from({ length: 120 }, (_, n) => ({
  key: `burst-${n}`,
  rule: 'failed-login',
  severity: 'high',
  time: now - 600_000 + n * 1000,
  user: 'alice',
}));
const scans: AlertSpec[] = Array.from({ length: 5 }, (_, n) => ({
  key: `scan-${n}`,
  rule: 'port-scan',
  severity: 'low',
  time: now - 900_000 + n * 1000,
  user: 'bob',
  techniques: ['T1046'],
}));

const stored = async (query: string): Promise<Stored[]> =>
  ((await c.node.call('GET', `/api/alerts?limit=1000&${query}`, { token })).body as { alerts: Stored[] }).alerts;

/** A Mantine Select by its label (a combobox or a textbox, by version). */
const select = (scope: Page | ReturnType<Page['getByRole']>, label: string) =>
  scope
    .getByRole('combobox', { name: label, exact: true })
    .or(scope.getByRole('textbox', { name: label, exact: true }))
    .first();

before(async () => {
  const settings = { ...isolatedEngine('ui-alerts'), 'weir.engine.autostart': 'false' };
  alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
  c = await startConsole(settings);
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  await createTopics([alertsTopic], 1).catch(() => {});
  await produceAlerts(alertsTopic, [...burst, ...scans]);
  await waitFor('the 125 alerts in the store', async () => (await stored('')).length === 125, 60_000);
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['alerts-triage-light']);
});

test('a burst of 120 alerts is one group; its click filters the list; "Load more" pages on; group by user', async () => {
  await page.goto('/alerts?group=rule');
  await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
  await page.getByText('2 groups', { exact: true }).waitFor();
  const groups = await tableRows(page, 'Alert groups');
  assert.deepEqual(
    groups.map((r) => r.slice(0, 2)),
    [
      ['failed-login', '120'],
      ['port-scan', '5'],
    ],
  );
  assert.equal(groups[0]![2], new Date(burst[0]!.time).toISOString(), 'first seen');
  assert.equal(groups[0]![3], new Date(burst[119]!.time).toISOString(), 'last seen');

  await page.getByRole('link', { name: 'Show the alerts of Rule failed-login' }).click();
  await page.waitForURL(/\/alerts\?group=rule&rule=failed-login$/);
  await page.getByText('100 alerts loaded, more to load', { exact: false }).waitFor();
  const rows = await tableRows(page, 'Alerts');
  assert.equal(rows.length, 100);
  // newest first: time, severity, rule (id and name), techniques, entity, status, assignee, silenced
  assert.deepEqual(rows[0]!.slice(1), [
    new Date(burst[119]!.time).toISOString(),
    'high',
    'failed-loginRule failed-login',
    'T1110',
    'user=alice',
    'new',
    '',
    '',
  ]);
  await page.getByRole('button', { name: 'Load more' }).click();
  await page.getByText('120 alerts · live', { exact: false }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);

  await page.locator('.mantine-SegmentedControl-label', { hasText: /^field$/ }).click();
  await page.waitForURL(/group=field%3Auser/);
  await page.getByRole('link', { name: 'Show the alerts of user bob' }).waitFor();
  assert.deepEqual(
    (await tableRows(page, 'Alert groups')).map((r) => r.slice(0, 2)),
    [
      ['alice', '120'],
      ['bob', '5'],
    ],
  );
});

test('bulk acknowledge of the 120; a new alert appears live', async () => {
  await page.goto('/alerts?rule=failed-login');
  await page.getByRole('button', { name: 'Load more' }).click();
  await page.getByText('120 alerts · live', { exact: false }).waitFor();
  await page.getByRole('checkbox', { name: 'Select every alert shown' }).check();
  await page.getByText('120 selected', { exact: true }).waitFor();
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Acknowledge' }).click();
  await page.getByText('120 alerts acknowledged', { exact: true }).waitFor();
  const acknowledged = await stored('status=acknowledged');
  assert.deepEqual(new Set(acknowledged.map((a) => a.id)), new Set(burst.map((b) => alertIdOf(b.key))));
  assert.ok(acknowledged.every((a) => a.updatedBy === 'admin'));
  assert.deepEqual(
    [...new Set((await tableRows(page, 'Alerts')).map((r) => r[6]))],
    ['acknowledged'],
    'every row shows its new status',
  );

  await produceAlerts(alertsTopic, [
    { key: 'late-1', rule: 'failed-login', severity: 'high', time: Date.now(), user: 'carol' },
  ]);
  await page.getByText('121 alerts · live', { exact: false }).waitFor({ timeout: 30_000 });
  const first = (await tableRows(page, 'Alerts'))[0]!;
  assert.deepEqual([first[5], first[6]], ['user=carol', 'new']);
});

test('bulk close asks the resolution: the port scans closed as false positive with a note', async () => {
  await page.goto('/alerts?status=new&rule=port-scan');
  await page.getByText('5 alerts · live', { exact: false }).waitFor();
  await page.getByRole('checkbox', { name: 'Select every alert shown' }).check();
  await page.getByRole('button', { name: 'Close…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close 5 alerts' });
  assert.equal(await dialog.getByRole('button', { name: 'Close alerts' }).isDisabled(), true, 'a resolution first');
  await select(dialog, 'Resolution').click();
  await page.getByRole('option', { name: 'false positive', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Note' }).fill('our own scanner, ticket 4711');
  await dialog.getByRole('button', { name: 'Close alerts' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('5 alerts closed', { exact: true }).waitFor();
  const closed = await stored('rule=port-scan');
  assert.deepEqual(
    closed.map((a) => [a.status, a.resolution, a.notes.map((n) => [n.user, n.text])]),
    Array(5).fill(['closed', 'false_positive', [['admin', 'our own scanner, ticket 4711']]]),
  );
  // the list is filtered by status=new: a poll later, the closed ones still show with their new status
  assert.deepEqual([...new Set((await tableRows(page, 'Alerts')).map((r) => r[6]))], ['closed: false_positive']);
  await page.goto('/alerts?group=rule');
  await page.getByText('2 groups', { exact: true }).waitFor();
  await page.getByText('100 alerts loaded, more to load', { exact: false }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'alerts-triage-light');
});

test('the overview counts the last 24 hours of alerts by severity; a count opens them', async () => {
  await page.goto('/');
  const high = page.getByTestId('severity-high');
  await page.waitForFunction(
    () =>
      (
        globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
      ).document.querySelector('[data-testid="severity-high"]')?.textContent === '121',
  );
  assert.deepEqual(
    await page
      .getByTestId('alerts-by-severity')
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.textContent)),
    ['0', '121', '0', '5', '0'],
  );
  await high.click();
  await page.waitForURL(/\/alerts\?range=24h&severity=high$/);
  await page.getByText('100 alerts loaded', { exact: false }).waitFor();
});

test('a user triages too: assigns an alert to themself, acknowledges it with a note', async () => {
  const p = await (await c.context('dark')).newPage();
  await signIn(p, 'uma', 'uma-pw');
  const id = alertIdOf('late-1');
  await p.goto(`/alerts/${id}?rule=failed-login`);
  const drawer = p.getByRole('dialog', { name: 'Alert: Rule failed-login' });
  await drawer.getByRole('button', { name: 'Assign to me' }).click();
  await select(drawer, 'Status').click();
  await p.getByRole('option', { name: 'acknowledged', exact: true }).click();
  await drawer.getByRole('textbox', { name: 'Note' }).fill('looking at carol');
  await drawer.getByRole('button', { name: 'Save triage' }).click();
  await drawer.getByTestId('alert-note').getByText('looking at carol').waitFor();
  const [one] = await stored(`assignee=uma`);
  assert.deepEqual(
    [one!.id, one!.status, one!.assignee, one!.updatedBy, one!.notes.map((n) => [n.user, n.text])],
    [id, 'acknowledged', 'uma', 'uma', [['uma', 'looking at carol']]],
  );
  assert.match((await drawer.getByTestId('alert-history').textContent()) ?? '', /uma at \d{4}-/);
  assert.deepEqual(await seriousViolations(p), []);
  await shoot(p, 'alert-detail-user-dark');
  await p.keyboard.press('Escape');
  await p.waitForURL(/\/alerts\?rule=failed-login$/);
  const row = (await tableRows(p, 'Alerts'))[0]!;
  assert.deepEqual([row[6], row[7]], ['acknowledged', 'uma']);
  await p.context().close();
});

test('the text and severity filters go to the URL and the API: a reload keeps them', async () => {
  await page.goto('/alerts');
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill('carol ');
  await page.waitForURL(/\/alerts\?q=carol$/);
  await page.getByText('1 alert · live', { exact: false }).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'Text', exact: true }).inputValue(), 'carol ');
  await page.reload();
  await page.getByText('1 alert · live', { exact: false }).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'Text', exact: true }).inputValue(), 'carol');
  await page.goto('/alerts?severity=low&severity=critical');
  await page.getByText('5 alerts · live', { exact: false }).waitFor();
  assert.deepEqual([...new Set((await tableRows(page, 'Alerts')).map((r) => r[2]))], ['low']);
});
