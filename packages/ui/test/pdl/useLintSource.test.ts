import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { createTopics, produce } from '@weir/test-helpers/kafka';
import { uniqueTopic } from '@weir/test-helpers/topics';
import {
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  type Console,
} from '../helpers/console.ts';

/**
 * The rule editor's lint source (useLintSource.ts, pdlLint.ts): lint warnings while typing, in Debian's chromium against the real UI server, engine and broker:
 * with a topic picked in the test panel, a field none of its recent events holds is marked in the
 * gutter and underlined, its message and fix shown on hover; the fix applied by its button, the
 * warning goes. With the panel's own events, an always-true condition is flagged, then fixed by typing.
 */
let c: Console;
const topic = uniqueTopic('ui-lint');

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-lint'), 'weir.engine.autostart': 'false' });
  const token = await c.node.initAdmin();
  await createTopics([topic], 1);
  await produce(
    topic,
    ['bob', 'eve', 'ann'].map((user) => JSON.stringify({ user, action: 'login', host: 'h1' })),
  );
  await post(c.node, token, '/api/rules', {
    id: 'logins',
    name: 'Logins',
    description: '',
    pdl: 'action = "login"',
    annotations: [],
    enabled: true,
  });
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['rule-lint']);
});

const editor = (page: Page) => page.getByRole('textbox', { name: 'PDL query' });

/** The editor's text, line by line. */
const editorText = (page: Page) => page.locator('.cm-content .cm-line').allTextContents();

/** Types at the end of the editor's text. */
async function typeAtEnd(page: Page, text: string): Promise<void> {
  await editor(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await page.keyboard.press('Escape'); // closes the completion list
}

/** Waits until the gutter has no warning marker (a function predicate: the console's CSP refuses eval). */
async function noWarningMarker(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll('.cm-lint-marker-warning').length === 0,
  );
}

/** Hovers the gutter's warning marker and answers the tooltip's text. */
async function gutterTooltip(page: Page): Promise<string> {
  await page.locator('.cm-lint-marker-warning').first().hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await tooltip.waitFor();
  return ((await tooltip.textContent()) ?? '').trim();
}

test('a field the topic’s recent events do not hold: gutter warning with its message, fixed by its button', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto('/rules/logins');
  await page.getByRole('heading', { name: 'Rule logins', exact: true }).waitFor();
  await page.locator('.cm-content .cm-line').first().waitFor();
  const pick = page
    .getByRole('combobox', { name: 'Take events from topic' })
    .or(page.getByRole('textbox', { name: 'Take events from topic' }));
  await pick.click();
  await page.getByRole('option', { name: topic, exact: true }).click();

  await typeAtEnd(page, ' AND usr = "bob"');
  await page.locator('.cm-lint-marker-warning').waitFor();
  assert.deepEqual(await page.locator('.cm-lintRange-warning').allTextContents(), ['usr']);
  assert.equal(
    await gutterTooltip(page),
    `field \`usr\` is in none of the 3 sample event(s) of topic ${topic} (did you mean \`user\`?)Use field \`user\`PDL_FIELD_NOT_SEEN`,
  );
  await shoot(page, 'rule-lint');
  assert.deepEqual(await seriousViolations(page), []);

  await page.locator('.cm-tooltip-lint').getByRole('button', { name: 'Use field `user`' }).click();
  assert.deepEqual(await editorText(page), ['action = "login" AND user = "bob"']);
  await noWarningMarker(page);
  assert.equal(await page.locator('.cm-lintRange-warning').count(), 0);
  await page.getByTestId('pdl-status').getByText('Valid PDL').waitFor();
  await page.close();
});

test('an always-true condition over the panel’s events: flagged while typing, gone once fixed', async () => {
  const page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
  await page.goto('/rules/logins');
  await page.getByRole('heading', { name: 'Rule logins', exact: true }).waitFor();
  await page.locator('.cm-content .cm-line').first().waitFor();
  await page.getByLabel('Events (a JSON array, or one JSON object per line)').fill('{"action": "login", "x": "a"}');

  await typeAtEnd(page, ' AND (x = "*" OR NOT x = "*")');
  await page.locator('.cm-lint-marker-warning').waitFor();
  const message = await gutterTooltip(page);
  assert.match(message, /^this condition is always true: /);
  // Typed away (the OR branch removed): the warning goes with the next lint.
  for (let i = 0; i < ' OR NOT x = "*")'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type(')');
  assert.deepEqual(await editorText(page), ['action = "login" AND (x = "*")']);
  await noWarningMarker(page);
  await page.close();
});
