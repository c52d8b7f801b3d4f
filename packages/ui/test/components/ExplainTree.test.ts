import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import {
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  type Console,
} from '../helpers/console.ts';

/**
 * Explain in the rule editor's test panel, in Debian's chromium against the real UI server and engine
 * (docs/detection-as-code.md, "Explain"): a test event explained as the rule's query tree (each node
 * ✓ held / ✗ did not hold, with the values seen and a missing field said so), folding a node; a
 * correlation rule's sample explained per event (group, window, count, fired) and its emission.
 */
let c: Console;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-explain'), 'weir.engine.autostart': 'false' });
  const token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  for (const [id, pdl] of [
    ['root-login', 'user="root" AND action="login"'],
    ['burst', 'event_count timespan=5m group_by user where _aggregation.value >= 3'],
  ])
    await post(c.node, token, '/api/rules', { id, name: id, description: '', pdl, annotations: [], enabled: true });
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['explain-light']);
});

const eventsLabel = 'Events (a JSON array, or one JSON object per line)';

async function runTest(page: Page, rule: string, lines: readonly string[]): Promise<void> {
  await page.goto(`/rules/${rule}`);
  await page.getByRole('heading', { name: `Rule ${rule}`, exact: true }).waitFor();
  await page.locator('.cm-content .cm-line').first().waitFor();
  await page.getByLabel(eventsLabel).fill(lines.join('\n'));
  await page.getByRole('button', { name: 'Run test' }).click();
  await page
    .getByTestId('test-result')
    .nth(lines.length - 1)
    .waitFor();
}

/** Each node of the query tree as its row reads (mark, the words for a screen reader, PDL, values, position). */
async function nodeRows(where: Locator): Promise<string[]> {
  return where
    .getByTestId('explain-node')
    .evaluateAll((nodes) =>
      nodes.map((n) =>
        ((n.firstElementChild as unknown as { innerText: string }).innerText ?? '').replace(/\s+/g, ' ').trim(),
      ),
    );
}

async function texts(where: Locator, testId: string): Promise<string[]> {
  return (await where.getByTestId(testId).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
}

test('an event explained: the AND did not hold, user="root" held with root, action="login" did not with logout', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'uma', 'uma-pw');
  await runTest(page, 'root-login', ['{"user":"root","action":"logout"}', '{"action":"login"}']);
  await page.getByTestId('test-results').getByText('0 of 2 events matched', { exact: true }).waitFor();

  const first = page.getByRole('button', { name: 'Explain event 1', exact: true });
  assert.equal(await first.getAttribute('aria-expanded'), 'false');
  await first.click();
  const explanation = page.getByRole('region', { name: 'Explanation of event 1' });
  await explanation.getByTestId('explain-node').nth(2).waitFor();
  assert.equal(await first.getAttribute('aria-expanded'), 'true');
  assert.deepEqual(await texts(explanation, 'explain-verdict'), ['✗no match The rule did not match: no output.']);
  assert.deepEqual(await texts(explanation, 'explain-stopped'), ['The event stopped at stage 0']);
  assert.deepEqual(await nodeRows(explanation), [
    '▾ ✗ did not hold user = "root" AND action = "login" line 1, column 1',
    '✓ held user = "root" seen: user = "root" line 1, column 1',
    '✗ did not hold action = "login" seen: action = "logout" line 1, column 17',
  ]);
  assert.deepEqual(await seriousViolations(page), []);
  await explanation.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await shoot(page, 'explain-light');

  // The AND folds: its operands hidden, the node itself kept.
  const fold = explanation.getByRole('button', { name: 'Operands of user = "root" AND action = "login"' });
  await fold.click();
  assert.equal(await fold.getAttribute('aria-expanded'), 'false');
  assert.deepEqual(await nodeRows(explanation), [
    '▸ ✗ did not hold user = "root" AND action = "login" line 1, column 1',
  ]);

  // A missing field is said to be missing.
  await page.getByRole('button', { name: 'Explain event 2', exact: true }).click();
  const second = page.getByRole('region', { name: 'Explanation of event 2' });
  await second.getByTestId('explain-node').nth(2).waitFor();
  assert.deepEqual((await nodeRows(second)).slice(1), [
    '✗ did not hold user = "root" seen: user missing line 1, column 1',
    '✓ held action = "login" seen: action = "login" line 1, column 17',
  ]);

  // A second click hides the explanation.
  await first.click();
  await explanation.waitFor({ state: 'detached' });
  assert.equal(await first.getAttribute('aria-expanded'), 'false');
  await page.context().close();
});

test('a correlation over the sample: per event its group, window, count and whether it fired; the emission', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'uma', 'uma-pw');
  const t = Date.UTC(2025, 0, 2, 10, 0, 0);
  await runTest(page, 'burst', [
    `{"user":"bob","_time":${t}}`,
    `{"user":"bob","_time":${t + 1000}}`,
    `{"user":"amy","_time":${t + 1500}}`,
    `{"user":"bob","_time":${t + 2000}}`,
  ]);
  const results = page.getByTestId('correlation-results');
  await results.getByText('1 correlation output', { exact: true }).waitFor();
  await results.getByRole('button', { name: 'Explain the sample', exact: true }).click();
  const explanation = page.getByRole('region', { name: 'Explanation of the sample' });
  await explanation.getByTestId('explain-emission').waitFor();
  assert.deepEqual(await texts(explanation, 'explain-verdict'), ['✓matched The rule matched: 1 output.']);
  assert.deepEqual(await texts(explanation, 'explain-stopped'), [
    'Event 1: stopped at stage 0',
    'Event 2: stopped at stage 0',
    'Event 3: stopped at stage 0',
    'Event 4: gave 1 output',
  ]);
  assert.deepEqual(await texts(explanation, 'explain-group'), [
    'Group: user = "bob"',
    'Group: user = "bob"',
    'Group: user = "amy"',
    'Group: user = "bob"',
  ]);
  assert.deepEqual(await texts(explanation, 'explain-count'), [
    'Count: count 1, value 1',
    'Count: count 2, value 2',
    'Count: count 1, value 1',
    'Count: count 3, value 3',
  ]);
  assert.deepEqual(await texts(explanation, 'explain-fired'), ['Fired: no', 'Fired: no', 'Fired: no', 'Fired: yes']);
  const window = (end: number) => `Window: ${new Date(end - 300_000).toISOString()} – ${new Date(end).toISOString()}`;
  assert.deepEqual(await texts(explanation, 'explain-window'), [
    window(t),
    window(t + 1000),
    window(t + 1500),
    window(t + 2000),
  ]);
  // The stage's mark says fired / did not fire in words too.
  const stages = explanation.getByTestId('explain-stage');
  assert.deepEqual(
    await stages.evaluateAll((s) => s.map((e) => e.querySelector('[data-result]')?.getAttribute('data-result'))),
    ['did not fire', 'did not fire', 'did not fire', 'fired'],
  );
  assert.deepEqual(await texts(explanation, 'explain-emission'), [
    `Emitted on event 4 for user = "bob": count 3, value 3, window ${new Date(t + 2000 - 300_000).toISOString()} – ${new Date(t + 2000).toISOString()}; came out of the rule`,
  ]);
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});
