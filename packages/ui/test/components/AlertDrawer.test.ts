import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, waitFor } from '@weir/test-helpers/engine';
import { createTopics } from '@weir/test-helpers/kafka';
import { alertIdOf, kcatProduce, produceAlerts } from '../helpers/alerts.ts';
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
 * An alert's detail drawer (`/alerts/{id}`, docs/ui.md "Alerts") in Debian's chromium against the
 * real UI server and engine: the facts, the suppression count and the correlation details of a
 * suppressed correlation alert written with kcat, the silence that silences it, a close as false
 * positive with a note (the history shows who and when), the source record opened in the message
 * browser at its partition and offset, and "Silence similar" reaching the silences form prefilled.
 */
let c: Console;
let page: Page;
let token: string;
let sourceTopic: string;
const id = alertIdOf('drawer-1');
const time = Date.now() - 60_000;

before(async () => {
  const settings = { ...isolatedEngine('ui-alert-drawer'), 'weir.engine.autostart': 'false' };
  const alertsTopic = `${settings['weir.topic.prefix']}_alerts`;
  sourceTopic = `${settings['weir.topic.prefix']}_auth`;
  c = await startConsole(settings);
  token = await c.node.initAdmin();
  await createTopics([alertsTopic, sourceTopic], 1).catch(() => {});
  await kcatProduce(sourceTopic, [
    JSON.stringify({ user: 'dave', action: 'login', status: 'failed', note: 'the source record' }),
  ]);
  await produceAlerts(alertsTopic, [
    {
      key: 'drawer-1',
      rule: 'brute-force',
      severity: 'critical',
      time,
      user: 'dave',
      host: 'web-7',
      source: { topic: sourceTopic, partition: 0, offset: 0 },
      extra: {
        _aggregation: { function: 'event_count', eventCount: 42, value: 42, groupBy: { user: 'dave' } },
      },
      alert: {
        suppression: {
          count: 41,
          firstSeen: time,
          lastSeen: time + 30_000,
          fields: { user: 'dave' },
          window: { start: time - (time % 300_000), end: time - (time % 300_000) + 300_000 },
        },
      },
    },
  ]);
  await waitFor('the alert in the store', async () => {
    const res = await c.node.call('GET', `/api/alerts/${id}`, { token });
    return res.status === 200;
  });
  const silence = await c.node.call('POST', '/api/silences', {
    token,
    body: {
      matchers: [{ field: 'host.name', op: '=', value: 'web-7' }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      comment: 'web-7 rebuild',
    },
  });
  assert.equal(silence.status, 201);
  page = await (await c.context('dark')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['alert-detail-dark']);
});

const drawer = () => page.getByRole('dialog', { name: 'Alert: Rule brute-force' });
const select = (label: string) =>
  drawer()
    .getByRole('combobox', { name: label, exact: true })
    .or(drawer().getByRole('textbox', { name: label, exact: true }))
    .first();

test('the facts, the suppression and correlation details and the silence of an alert', async () => {
  await page.goto('/alerts');
  const row = page.getByTestId('alert-row');
  await row.waitFor();
  assert.deepEqual((await tableRows(page, 'Alerts'))[0]!.slice(2), [
    'critical',
    'brute-forceRule brute-force',
    'T1110',
    'user=dave',
    'new',
    '',
    'silenced',
  ]);
  await row.getByRole('link', { name: /^Alert / }).click();
  await page.waitForURL(new RegExp(`/alerts/${id}$`));
  const facts = await drawer().getByRole('table', { name: 'Alert facts' }).textContent();
  assert.match(facts ?? '', /Severitycritical/);
  assert.match(facts ?? '', /Rulebrute-force \(Rule brute-force\)/);
  assert.match(facts ?? '', /TechniquesT1110 Brute Force/);
  assert.match(facts ?? '', /Entityuser=dave/, 'the suppression fields are the entity');
  assert.match(facts ?? '', new RegExp(`Source record${sourceTopic} partition 0 offset 0`));
  assert.match(facts ?? '', /Silencedby [0-9a-f-]{36}/);
  assert.match(
    (await drawer().getByTestId('alert-suppression').textContent()) ?? '',
    /This alert and 41 more in its window \(41 suppressed\)\. First seen .* on user=dave\./,
  );
  await drawer().getByText('"eventCount"', { exact: false }).or(drawer().getByText('eventCount')).first().waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'alert-detail-dark');
});

test('close as false positive with a note: the history says who and when', async () => {
  await page.goto(`/alerts/${id}`);
  assert.equal(await select('Resolution').isDisabled(), true, 'a resolution only when closing');
  await select('Status').click();
  await page.getByRole('option', { name: 'closed', exact: true }).click();
  assert.equal(await drawer().getByRole('button', { name: 'Save triage' }).isDisabled(), true, 'a resolution first');
  await select('Resolution').click();
  await page.getByRole('option', { name: 'false positive', exact: true }).click();
  await drawer().getByRole('textbox', { name: 'Note' }).fill('dave mistyped after a reset');
  await drawer().getByRole('button', { name: 'Save triage' }).click();
  await drawer().getByTestId('alert-note').waitFor();
  const history = (await drawer().getByTestId('alert-history').textContent()) ?? '';
  assert.match(history, /^Notesadmin at \d{4}-\d\d-\d\dT[\d:.]+Zdave mistyped after a resetLast change by admin at /);
  const stored = (await c.node.call('GET', `/api/alerts/${id}`, { token })).body as {
    status: string;
    resolution: string;
    notes: { user: string; text: string }[];
  };
  assert.deepEqual(
    [stored.status, stored.resolution, stored.notes.map((n) => [n.user, n.text])],
    ['closed', 'false_positive', [['admin', 'dave mistyped after a reset']]],
  );
  await page.keyboard.press('Escape');
  await page.waitForURL(/\/alerts$/);
  await page.getByTestId('alert-row').first().waitFor();
  assert.equal((await tableRows(page, 'Alerts'))[0]![6], 'closed: false_positive');
});

test('the source record opens in the message browser at its partition and offset', async () => {
  await page.goto(`/alerts/${id}`);
  await drawer().getByRole('link', { name: 'Open the source record in Messages' }).click();
  await page.waitForURL(/\/messages\?topic=.*&partition=0&offset=0$/);
  const row = page.getByTestId('message-row').first();
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /the source record/);
  assert.equal(await page.getByTestId('message-row').count(), 1);
});

test('"Silence similar" opens the silences form with the rule and the entity', async () => {
  await page.goto(`/alerts/${id}`);
  await drawer().getByRole('link', { name: 'Silence similar…' }).click();
  await page.waitForURL(/\/silences\/new\?match=_rule\.id%3Dbrute-force&match=user%3Ddave$/);
  const form = page.getByRole('dialog', { name: 'New silence' });
  assert.deepEqual(
    [
      await form.getByRole('textbox', { name: 'Field 1' }).inputValue(),
      await form.getByRole('textbox', { name: 'Value 1' }).inputValue(),
      await form.getByRole('textbox', { name: 'Field 2' }).inputValue(),
      await form.getByRole('textbox', { name: 'Value 2' }).inputValue(),
    ],
    ['_rule.id', 'brute-force', 'user', 'dave'],
  );
});

test('an unknown alert says so in the drawer', async () => {
  await page.goto('/alerts/0123456789abcdef0123456789abcdef');
  const refusal = page.getByRole('dialog', { name: 'Alert' }).getByRole('alert');
  await refusal.waitFor();
  assert.match((await refusal.textContent()) ?? '', /0123456789abcdef0123456789abcdef|does not exist|not found/i);
});
