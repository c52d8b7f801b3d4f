import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post, waitFor } from '@weir/test-helpers/engine';
import { kcatLines, kcatProduce } from '@weir/test-helpers/kcat';
import { uniqueTopic } from '@weir/test-helpers/topics';
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
 * The rule editor's Backtest tab (components/BacktestPanel.tsx; docs/detection-as-code.md, "In the
 * console") in Debian's chromium against the real UI server, engine and broker — issue 22's story:
 * change a rule, backtest it over the last hour, see new and lost alerts, roll back. A stored rule
 * (`user="root"`) and 24 unkeyed events on three partitions, written a moment ago; the editor's
 * text changed (unsaved) to `action="su"`, backtested over the last hour: the new alerts (su, not
 * root) and the lost ones (root, not su), each with its time, fields and source record, as computed
 * here from the events and where kcat found them; saved, then rolled back in the History tab.
 */
let c: Console;
let token: string;
const topic = uniqueTopic('backtest-in');
const ruleId = 'root-activity';
const v1 = 'user="root"';
const v2 = 'action="su"';

interface Event {
  n: number;
  user: string;
  action: string;
  _time: number;
}
/** root, bob and eve in turn; every fourth one an `su`; event times within the last hour. */
const start = Date.now() - 40 * 60_000;
const events: Event[] = Array.from({ length: 24 }, (_, n) => ({
  n,
  user: ['root', 'bob', 'eve'][n % 3]!,
  action: n % 4 === 0 ? 'su' : 'login',
  _time: start + n * 60_000,
}));

before(async () => {
  c = await startConsole({
    ...isolatedEngine('ui-backtest'),
    'weir.engine.autostart': 'false',
    // the long backtest below reads its 200,000 events in 10 s whatever the machine: time to see it run and cancel it
    'weir.backtest.max-events-per-second': '20000',
  });
  token = await c.node.initAdmin();
  await post(c.node, token, '/api/topics', { name: topic, numberOfPartitions: 3, replicationFactor: 1 });
  await kcatProduce(
    topic,
    events.map((e) => JSON.stringify(e)),
  );
  await post(c.node, token, '/api/rules', { id: ruleId, name: 'Root activity', pdl: v1, enabled: true });
  // The rule runs in a topology reading the topic: the Backtest tab offers that topic first.
  await post(c.node, token, '/api/tasks', {
    id: 1,
    name: 'detect',
    description: '',
    function: 'APPLY_RULES',
    definition: { rules: [ruleId] },
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'main', description: '', tasks: [1] });
  await post(c.node, token, '/api/topologies', {
    id: 1,
    name: 'auth',
    description: '',
    pipelines: [1],
    enabled: false,
    group: 'default',
    input: { name: topic },
    output: [],
  });
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['rule-backtest-light']);
});

/** Where each event landed (partition and offset), as kcat reads the topic: by `n`. */
async function placed(): Promise<Map<number, { partition: number; offset: number }>> {
  const lines = await kcatLines(topic, '%p %o %s\n');
  assert.equal(lines.length, events.length);
  return new Map(
    lines.map((l) => {
      const [p, o, ...value] = l.split(' ');
      return [(JSON.parse(value.join(' ')) as Event).n, { partition: Number(p), offset: Number(o) }];
    }),
  );
}

/** Replaces the editor's PDL with `text`, typed (the completion list closed). */
async function typePdl(p: Page, text: string): Promise<void> {
  await p.getByRole('textbox', { name: 'PDL query' }).click();
  await p.keyboard.press('Control+A');
  await p.keyboard.press('Delete');
  await p.keyboard.type(text);
  await p.keyboard.press('Escape');
  await p.getByTestId('pdl-status').getByText('Valid PDL').waitFor();
}

const sorted = (rows: string[][]) => [...rows].sort((a, b) => a[0]!.localeCompare(b[0]!));

test('change a rule, backtest it over the last hour, see new and lost alerts, roll back', async () => {
  const where = await placed();
  // The expected rows, from the events: time, the event's own fields, its source record.
  const row = (e: Event) => {
    const { partition, offset } = where.get(e.n)!;
    return [
      new Date(e._time).toISOString(),
      `n=${e.n} user=${JSON.stringify(e.user)} action=${JSON.stringify(e.action)}`,
      `${topic} / ${partition} / ${offset}`,
    ];
  };
  const inForce = events.filter((e) => e.user === 'root');
  const candidate = events.filter((e) => e.action === 'su');
  const fresh = candidate.filter((e) => e.user !== 'root');
  const lost = inForce.filter((e) => e.action !== 'su');
  const both = candidate.filter((e) => e.user === 'root');
  assert.deepEqual(
    [inForce, candidate, fresh, lost, both].map((s) => s.length),
    [8, 6, 4, 6, 2],
  );

  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto(`/rules/${ruleId}`);
  await page.locator('.cm-content').getByText(v1).waitFor();
  await typePdl(page, v2);

  // The Backtest tab: the topic of the rule's topology offered, the last hour picked; run, not saved.
  await page.getByRole('tab', { name: 'Backtest', exact: true }).click();
  const panel = page.getByTestId('backtest');
  const topicField = panel.getByRole('textbox', { name: 'Topic' }).or(panel.getByRole('combobox', { name: 'Topic' }));
  await waitFor('the topic offered', async () => (await topicField.first().inputValue()) === topic, 10_000);
  assert.equal(await topicField.first().inputValue(), topic);
  const range = panel.getByRole('textbox', { name: 'Range' }).or(panel.getByRole('combobox', { name: 'Range' }));
  assert.equal(await range.first().inputValue(), 'Last hour');
  await panel.getByRole('button', { name: 'Run backtest' }).click();

  // The progress bar and the words under it reach the whole range.
  await panel.getByTestId('backtest-state').getByText('done', { exact: true }).waitFor();
  assert.equal(
    await panel.getByRole('progressbar', { name: 'Backtest progress' }).getAttribute('aria-valuenow'),
    '100',
  );
  assert.match(
    (await panel.getByTestId('backtest-progress').textContent()) ?? '',
    /^24 events read · 100% of the range · [\d,]+ events\/s$/,
  );
  assert.equal(await panel.getByTestId('backtest-summary').textContent(), '24 events read.');
  assert.deepEqual(await tableRows(page, 'Alerts per rule'), [[ruleId, '6', '8', '4', '6']]);

  // New alerts: su by someone other than root; lost: root's logins; both: root's su.
  assert.equal(await panel.getByTestId('backtest-new-alerts-count').textContent(), '4');
  assert.equal(await panel.getByTestId('backtest-lost-alerts-count').textContent(), '6');
  assert.equal(await panel.getByTestId('backtest-in-both-count').textContent(), '2');
  assert.deepEqual(sorted(await tableRows(page, 'New alerts')), sorted(fresh.map(row)));
  assert.deepEqual(sorted(await tableRows(page, 'Lost alerts')), sorted(lost.map(row)));
  assert.deepEqual(sorted(await tableRows(page, 'In both')), sorted(both.map(row)));
  // Each alert's source record opens in the message browser.
  const first = lost[0]!;
  const link = page.getByRole('table', { name: 'Lost alerts' }).getByRole('link', { name: row(first)[2], exact: true });
  assert.equal(
    await link.getAttribute('href'),
    `/messages?topic=${topic}&partition=${where.get(first.n)!.partition}&offset=${where.get(first.n)!.offset}`,
  );
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'rule-backtest-light');

  // Saved: version 2; then rolled back to version 1 in the History tab.
  await page.getByRole('tab', { name: 'Rule', exact: true }).click();
  await page.getByRole('textbox', { name: /^Change note/ }).fill('su instead of root');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await page.getByText(`Rule ${ruleId} saved`, { exact: true }).waitFor();
  await page.getByRole('tab', { name: 'History', exact: true }).click();
  await page.getByTestId('version-row').nth(1).waitFor();
  await page.getByRole('button', { name: 'Roll back to version 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll back to version 1' });
  await dialog.getByRole('button', { name: 'Roll back', exact: true }).click();
  await page.getByText(`Rule ${ruleId} rolled back to version 1`, { exact: true }).waitFor();
  await page.getByTestId('version-row').nth(2).waitFor();
  const versions = await c.node.call('GET', `/api/rules/${ruleId}/versions`, { token });
  assert.deepEqual(
    (versions.body as { version: number; rollbackOf?: number }[]).map((v) => [v.version, v.rollbackOf]),
    [
      [1, undefined],
      [2, undefined],
      [3, 1],
    ],
  );
  await page.getByRole('tab', { name: 'Rule', exact: true }).click();
  assert.deepEqual(await page.locator('.cm-content .cm-line').allTextContents(), [v1]);
  const stored = await c.node.call('GET', `/api/rules/${ruleId}`, { token });
  assert.equal((stored.body as { pdl: string }).pdl, v1);

  // The rolled-back text against the rule in force (the same): nothing new, nothing lost.
  await page.getByRole('tab', { name: 'Backtest', exact: true }).click();
  await panel.getByRole('button', { name: 'Run backtest' }).click();
  await panel.getByTestId('backtest-in-both-count').getByText('8', { exact: true }).waitFor();
  assert.equal(await panel.getByTestId('backtest-new-alerts-count').textContent(), '0');
  assert.equal(await panel.getByTestId('backtest-lost-alerts-count').textContent(), '0');
  await page.context().close();
});

test('clear errors (in the dark scheme): a text that does not compile (the server says where), an end before the start, an empty range', async () => {
  const page = await (await c.context('dark')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto(`/rules/${ruleId}`);
  await page.locator('.cm-content').getByText(v1).waitFor();
  await page.getByRole('textbox', { name: 'PDL query' }).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('user=');
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Backtest', exact: true }).click();
  const panel = page.getByTestId('backtest');
  const run = panel.getByRole('button', { name: 'Run backtest' });
  await run.click();
  const refused = panel.getByRole('alert').filter({ hasText: 'The backtest did not start' });
  await refused.waitFor();
  assert.match(
    (await refused.textContent()) ?? '',
    new RegExp(`candidate\\.rules\\[0\\]\\.pdl: rule '${ruleId}' does not compile: .*expected a value after '='`),
  );

  // A valid text again; a custom range whose end is before its start.
  await page.getByRole('tab', { name: 'Rule', exact: true }).click();
  await page.getByRole('textbox', { name: 'PDL query' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('"root"');
  await page.keyboard.press('Escape');
  await page.getByTestId('pdl-status').getByText('Valid PDL').waitFor();
  await page.getByRole('tab', { name: 'Backtest', exact: true }).click();
  const range = panel.getByRole('textbox', { name: 'Range' }).or(panel.getByRole('combobox', { name: 'Range' }));
  await range.first().click();
  await page.getByRole('option', { name: 'Custom', exact: true }).click();
  await panel.getByRole('textbox', { name: 'From', exact: true }).fill('2019-03-14T10:00');
  await panel.getByRole('textbox', { name: 'To', exact: true }).fill('2019-03-14T09:00');
  await run.click();
  await refused.filter({ hasText: /To: the end \(.*\) is before the start \(.*\)/ }).waitFor();

  // An hour of 2019: no event of the topic is in it.
  await panel.getByRole('textbox', { name: 'To', exact: true }).fill('2019-03-14T11:00');
  await run.click();
  await panel.getByRole('status').filter({ hasText: 'The range is empty' }).waitFor();
  assert.equal(await refused.count(), 0);
  assert.equal(await panel.getByTestId('backtest-new-alerts-count').textContent(), '0');
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

test('a long backtest: its progress while it runs, then cancelled', async () => {
  const big = uniqueTopic('backtest-big');
  await post(c.node, token, '/api/topics', { name: big, numberOfPartitions: 1, replicationFactor: 1 });
  await kcatProduce(
    big,
    Array.from({ length: 200_000 }, (_, n) => `{"n":${n},"user":"root","action":"login"}`),
  );
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto(`/rules/${ruleId}`);
  await page.locator('.cm-content').getByText(v1).waitFor();
  await page.getByRole('tab', { name: 'Backtest', exact: true }).click();
  const panel = page.getByTestId('backtest');
  const topicField = panel.getByRole('textbox', { name: 'Topic' }).or(panel.getByRole('combobox', { name: 'Topic' }));
  await waitFor('the topic offered', async () => (await topicField.first().inputValue()) === topic, 10_000);
  await topicField.first().click();
  await page.getByRole('option', { name: big, exact: true }).click();
  await panel.getByRole('button', { name: 'Run backtest' }).click();
  // Running: some events read, not all yet.
  await panel.getByTestId('backtest-state').getByText('running', { exact: true }).waitFor();
  await panel
    .getByTestId('backtest-progress')
    .getByText(/^[1-9][\d,]* events read · \d+% of the range/)
    .waitFor();
  await panel.getByRole('button', { name: 'Cancel backtest' }).click();
  await panel.getByTestId('backtest-state').getByText('cancelled', { exact: true }).waitFor();
  const read = await panel.getByRole('progressbar', { name: 'Backtest progress' }).getAttribute('aria-valuenow');
  assert.ok(Number(read) < 100, `cancelled at ${read}%`);
  await panel.getByRole('status').filter({ hasText: 'cancelled by admin' }).waitFor();
  assert.equal(await panel.getByRole('button', { name: 'Cancel backtest' }).count(), 0);
  assert.equal(await panel.getByTestId('backtest-new-alerts-count').count(), 0);
  // The server says the same.
  const list = await c.node.call('GET', '/api/backtests', { token });
  const last = (list.body as { state: string; progress: { eventsRead: number } }[]).at(-1)!;
  assert.equal(last.state, 'cancelled');
  assert.ok(last.progress.eventsRead < 200_000);
  await page.context().close();
});
