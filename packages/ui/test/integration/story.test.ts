import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import type { UiServer } from '../../server/ui-server.ts';
import {
  publishDocScreenshots,
  seriousViolations,
  shoot,
  startConsole,
  startUiFor,
  writeRuleWithSyntaxError,
  type Console,
} from '../helpers/console.ts';

/**
 * The end-to-end story of a new user, every step in the browser (Debian's chromium) against the
 * real UI server, engine and broker: first-run init → login → a rule with a syntax error, fixed,
 * tested on pasted events → a lookup uploaded (drop, preview, save; replaced through the file
 * picker) → tasks, a pipeline and a topology made in their pages → an event produced in the message
 * browser → the alert in Alerts, the counters on the overview, the live rate on the topology graph →
 * the configuration exported and imported into a fresh node.
 */
let c: Console;
let ctx: BrowserContext;
let page: Page;
let fresh: TestNode | undefined;
let freshUi: UiServer | undefined;
let exported = '';
const password = 'story-password-1';

before(async () => {
  // Its own consumer group and weir_* topics: other UI tests run beside it on the same broker.
  c = await startConsole(isolatedEngine('ui-story'));
  ctx = await c.context('light');
  page = await ctx.newPage();
});
after(async () => {
  await freshUi?.close();
  await fresh?.stop();
  await c?.stop();
  publishDocScreenshots([
    'lookup-preview-light',
    'task-editor-light',
    'pipeline-editor-light',
    'topologies-light',
    'configuration-light',
  ]);
});

const nav = (p: Page, label: string) =>
  p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();
const heading = (p: Page, name: string) => p.getByRole('heading', { name, exact: true }).waitFor();

/** A form field by its label: text inputs, and the inputs of Select, MultiSelect, Autocomplete, TagsInput. */
function field(p: Page | Locator, label: string | RegExp): Locator {
  return p
    .getByRole('combobox', { name: label })
    .or(p.getByRole('textbox', { name: label }))
    .first();
}

async function pick(p: Page, label: string | RegExp, option: string): Promise<void> {
  await field(p, label).click();
  await p.getByRole('option', { name: option, exact: true }).click();
}

async function signIn(p: Page, username: string): Promise<void> {
  await heading(p, 'Sign in to Weir');
  await p.getByRole('textbox', { name: /^Username/ }).fill(username);
  await p.locator('input[type=password]').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await heading(p, 'Overview');
}

async function initAndSignIn(p: Page, username: string): Promise<void> {
  await p.goto('/');
  await heading(p, 'Welcome to Weir');
  await p.getByRole('textbox', { name: /^Name/ }).fill('Story Admin');
  await p.getByRole('textbox', { name: /^Username/ }).fill(username);
  await p.getByRole('textbox', { name: /^E-mail/ }).fill(`${username}@example.com`);
  await p.locator('input[type=password]').fill(password);
  await p.getByRole('button', { name: 'Create admin' }).click();
  await signIn(p, username);
}

/** axe on the page with the pointer moved off the navigation (a hovered link is not what is checked). */
async function violations(p: Page): Promise<string[]> {
  await p.mouse.move(700, 890);
  return seriousViolations(p);
}

/** Drops a file on the element with the test id, as a user dragging it from their desktop does. */
async function dropFile(p: Page, testId: string, name: string, type: string, text: string): Promise<void> {
  const dataTransfer = await p.evaluateHandle(
    ({ name, type, text }) => {
      const g = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
      const d = new g.DataTransfer();
      d.items.add(new File([text], name, { type }));
      return d;
    },
    { name, type, text },
  );
  await p.getByTestId(testId).dispatchEvent('drop', { dataTransfer });
}

/** The alerts counted by the engine so far (its metrics summary, read with the page's session). */
async function alertCount(p: Page): Promise<number> {
  return p.evaluate(async (pw) => {
    const login = await fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'sam', password: pw }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const res = await fetch('/api/metrics/summary', { headers: { authorization: `Bearer ${access_token}` } });
    return ((await res.json()) as { alerts: { value: number }[] }).alerts.reduce((a, x) => a + x.value, 0);
  }, password);
}

describe('the story of a new user, all in the browser', () => {
  test('first run: init creates the admin, then sign in', async () => {
    await initAndSignIn(page, 'sam');
    assert.equal(await page.getByTestId('whoami').textContent(), 'sam (admin)');
  });

  test('a rule with a syntax error shows the error at its position; fixed, saved, tested on pasted events', async () => {
    await writeRuleWithSyntaxError(page, {
      lines: ['action="login" AND status='],
      error: { line: 1, column: 27 },
      fix: '"failed"',
      events: [
        '{"user":"alice","action":"login","status":"failed"}',
        '{"user":"bob","action":"login","status":"ok"}',
        '{"user":"carol","action":"login","status":"failed"}',
      ],
      matched: '2 of 3 events matched',
    });
  });

  test('a lookup: a CSV dropped on the page is previewed as a table, saved, replaced through the file picker, downloaded', async () => {
    await nav(page, 'Lookups');
    await heading(page, 'Lookups');
    // A bad file is refused before anything is sent, saying what is wrong and where.
    await dropFile(page, 'lookup-dropzone', 'bad.csv', 'text/csv', 'ip,owner\n10.0.0.1\n');
    assert.match(
      (await page.getByRole('alert').filter({ hasText: 'bad.csv' }).textContent()) ?? '',
      /row 2 has 1 cells, the header has 2/,
    );
    await dropFile(
      page,
      'lookup-dropzone',
      'owners.csv',
      'text/csv',
      'ip,owner,floor\n10.0.0.1,alice,3\n10.0.0.2,"bob, jr","007"\n',
    );
    const preview = page.getByTestId('lookup-preview');
    await preview.getByText('Preview of owners.csv: 2 rows, 3 columns').waitFor();
    const table = page.getByRole('table', { name: 'Preview of owners.csv' });
    assert.deepEqual(await table.getByRole('row').nth(2).getByRole('cell').allTextContents(), [
      '10.0.0.2',
      'bob, jr',
      '007',
    ]);
    assert.equal(await preview.getByRole('textbox', { name: /^Lookup id/ }).inputValue(), 'owners');
    await shoot(page, 'lookup-preview-light');
    assert.deepEqual(await violations(page), []);
    await preview.getByRole('button', { name: 'Save lookup' }).click();
    const row = page.getByTestId('lookup-row').filter({ hasText: 'owners' });
    await row.waitFor();
    assert.deepEqual(await row.getByRole('cell').nth(1).textContent(), '2');
    // Replace through the file picker: the preview first, then the engine holds the new rows.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      row.getByRole('button', { name: 'Replace lookup owners' }).click(),
    ]);
    await chooser.setFiles({
      name: 'owners.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify([
          { ip: '10.0.0.1', owner: 'alice' },
          { ip: '10.0.0.2', owner: 'bob' },
          { ip: '10.0.0.3', owner: 'carol' },
        ]),
      ),
    });
    await preview.getByText('Preview of owners.json: 3 rows, 2 columns').waitFor();
    await preview.getByRole('button', { name: 'Replace owners' }).click();
    await row.getByRole('cell', { name: '3', exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download lookup owners' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'owners.json');
    assert.deepEqual(JSON.parse(readFileSync(await download.path(), 'utf8')), [
      { ip: '10.0.0.1', owner: 'alice' },
      { ip: '10.0.0.2', owner: 'bob' },
      { ip: '10.0.0.3', owner: 'carol' },
    ]);
  });

  test('tasks made from the schema-generated forms; a refusal is shown at its field; a task tested on an event', async () => {
    await nav(page, 'Tasks');
    await page.getByRole('button', { name: 'New task' }).click();
    let drawer = page.getByRole('dialog', { name: 'New task' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('parse');
    // PARSE_KV is the default function; its form shows the engine's defaults.
    assert.equal(await drawer.getByRole('textbox', { name: 'delimiter' }).getAttribute('placeholder'), 'default: =');
    await drawer.getByRole('button', { name: 'Save task' }).click();
    drawer = page.getByRole('dialog', { name: 'Task 1' });
    await drawer.getByLabel('Event (raw text, or a JSON event)').fill('user=alice action=login status=failed');
    await drawer.getByRole('button', { name: 'Run task test' }).click();
    const result = JSON.parse((await drawer.getByTestId('task-test-result').textContent()) ?? '') as Record<
      string,
      unknown
    >;
    assert.equal(result.user, 'alice');
    assert.equal(result.status, 'failed');
    assert.equal(result._raw, 'user=alice action=login status=failed');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New task' }).click();
    drawer = page.getByRole('dialog', { name: 'New task' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('rules');
    await pick(page, /^Function/, 'APPLY_RULES');
    // Saved without its required `rules`: the API's violation appears under that field.
    await drawer.getByRole('button', { name: 'Save task' }).click();
    await drawer.getByRole('alert').filter({ hasText: 'definition.rules' }).waitFor();
    await drawer.getByText('is required', { exact: false }).first().waitFor();
    await field(drawer, /^rules/).fill('failed-login');
    await page.keyboard.press('Enter');
    await shoot(page, 'task-editor-light');
    assert.deepEqual(await violations(page), []);
    await drawer.getByRole('button', { name: 'Save task' }).click();
    await page.getByRole('dialog', { name: 'Task 2' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('task-row').nth(1).waitFor();
    assert.equal(await page.getByTestId('task-row').count(), 2);
  });

  test('a pipeline: tasks added, reordered with the keyboard buttons, saved, tested step by step', async () => {
    // The Ctrl+K palette reaches the new pages too.
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Command palette search' }).fill('Pipel');
    await page.keyboard.press('Enter');
    await heading(page, 'Pipelines');
    await page.getByRole('button', { name: 'New pipeline' }).click();
    const drawer = page.getByRole('dialog', { name: 'New pipeline' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('detect');
    for (const label of ['2 · rules (APPLY_RULES)', '1 · parse (PARSE_KV)']) {
      await pick(page, 'Task to add', label);
      await drawer.getByRole('button', { name: 'Add task' }).click();
    }
    const order = () => drawer.getByTestId('pipeline-task').allTextContents();
    assert.match((await order())[0]!, /rules/);
    await drawer.getByRole('button', { name: 'Move task 1 up' }).click();
    assert.match((await order())[0]!, /parse/);
    assert.match((await order())[1]!, /rules/);
    await drawer.getByRole('button', { name: 'Save pipeline' }).click();
    const saved = page.getByRole('dialog', { name: 'Pipeline 1' });
    await saved.getByLabel('Raw record text').fill('user=alice action=login status=failed');
    await saved.getByRole('button', { name: 'Run pipeline test' }).click();
    const steps = saved.getByTestId('pipeline-step');
    await steps.nth(1).waitFor();
    assert.match((await steps.nth(0).textContent()) ?? '', /Step 1: 1 · parse[\s\S]*"user": "alice"/);
    assert.match((await steps.nth(1).textContent()) ?? '', /Step 2: 2 · rules[\s\S]*failed-login/);
    assert.match((await saved.getByTestId('pipeline-result').textContent()) ?? '', /failed-login/);
    await shoot(page, 'pipeline-editor-light');
    assert.deepEqual(await violations(page), []);
    await page.keyboard.press('Escape');
    assert.match(
      (await page.getByTestId('pipeline-row').textContent()) ?? '',
      /1 · parse \(PARSE_KV\) → 2 · rules \(APPLY_RULES\)/,
    );
  });

  test('a topic and a topology made in the UI; the graph shows input → pipeline tasks → output', async () => {
    await nav(page, 'Topics');
    await page.getByRole('button', { name: 'Create topic' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('story-logs');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'story-logs', exact: true }).waitFor();
    await nav(page, 'Topologies');
    await page.getByRole('button', { name: 'New topology' }).click();
    const drawer = page.getByRole('dialog', { name: 'New topology' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('story');
    await field(drawer, /^Input topic/).fill('story-logs');
    await field(drawer, /^Pipelines, in the order/).click();
    await page.getByRole('option', { name: '1 · detect' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: 'Add output' }).click();
    await field(drawer, /^Output 1 topic/).fill('story-alerts');
    await drawer.getByRole('button', { name: 'Save topology' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const graph = page.getByTestId('topology-graph');
    for (const label of [
      '⇢ story-logs',
      'parse (PARSE_KV)',
      'rules (APPLY_RULES)',
      'pipeline 1 · detect',
      'story-alerts ⇢',
    ])
      await graph.getByText(label).waitFor();
    await shoot(page, 'topologies-light');
    assert.deepEqual(await violations(page), []);
  });

  test('an event produced in the message browser becomes an alert; Alerts, the overview and the graph show it', async () => {
    await nav(page, 'Messages');
    await page.getByRole('combobox', { name: 'Topic' }).fill('story-logs');
    await page.getByRole('option', { name: 'story-logs' }).click();
    await page.getByLabel('Value').fill('user=alice action=login status=failed');
    // The engine may still be joining its group for the new topology: produce until it counts an alert.
    let alerted = false;
    for (let i = 0; i < 40 && !alerted; i++) {
      await page.getByRole('button', { name: 'Produce', exact: true }).click();
      await page.getByText('Produced to story-logs').first().waitFor();
      await page.waitForTimeout(1500);
      alerted = (await alertCount(page)) > 0;
    }
    assert.ok(alerted, 'the engine raised an alert for the produced event');
    await nav(page, 'Alerts');
    await page.getByTestId('alert-row').filter({ hasText: 'failed-login' }).first().waitFor({ timeout: 60_000 });
    await nav(page, 'Overview');
    for (const id of ['alerts', 'records-in']) {
      await page.waitForFunction(
        (tid) => {
          const doc = (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
          ).document;
          return Number(doc.querySelector(`[data-testid="${tid}"]`)?.textContent) > 0;
        },
        id,
        { timeout: 30_000 },
      );
    }
    // Live records/s on the graph's edges while events flow (produced from a second tab).
    await nav(page, 'Topologies');
    const producer = await ctx.newPage();
    await producer.goto('/');
    await heading(producer, 'Overview');
    const flowing = producer.evaluate(async (pw) => {
      const login = await fetch('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'sam', password: pw }),
      });
      const { access_token } = (await login.json()) as { access_token: string };
      for (let i = 0; i < 40; i++) {
        await fetch('/api/topics/story-logs/produce', {
          method: 'POST',
          headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messages: Array.from({ length: 20 }, () => ({ value: 'user=bob action=login status=failed' })),
          }),
        });
        await new Promise((r) => setTimeout(r, 250));
      }
    }, password);
    await page
      .getByTestId('topology-graph')
      .getByText(/^([1-9]\d*(\.\d)?|0\.[1-9]) rec\/s$/)
      .first()
      .waitFor({ timeout: 30_000 });
    await flowing;
    await producer.close();
  });

  test('the configuration exported and imported into a fresh node', async () => {
    await nav(page, 'Configuration');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export configuration' }).click(),
    ]);
    exported = await download.path();
    const bundle = JSON.parse(readFileSync(exported, 'utf8')) as Record<string, { id: unknown }[]>;
    assert.deepEqual(
      ['lookups', 'rules', 'tasks', 'pipelines', 'topologies'].map((k) => bundle[k]!.map((r) => r.id)),
      [['owners'], ['failed-login'], [1, 2], [1], [1]],
    );

    fresh = await startTestNode(isolatedEngine('ui-story-fresh'));
    freshUi = await startUiFor(fresh);
    const other = await c.browser.newContext({
      ignoreHTTPSErrors: true,
      baseURL: freshUi.url,
      viewport: { width: 1400, height: 900 },
    });
    other.setDefaultTimeout(20_000);
    const p = await other.newPage();
    await initAndSignIn(p, 'sam');
    await nav(p, 'Configuration');
    const [chooser] = await Promise.all([
      p.waitForEvent('filechooser'),
      p.getByRole('button', { name: 'Choose an exported file' }).click(),
    ]);
    await chooser.setFiles(exported);
    await p.getByTestId('import-summary').getByRole('cell', { name: 'failed-login' }).waitFor();
    await p.getByRole('button', { name: 'Import configuration' }).click();
    const steps = p.getByTestId('import-steps');
    await steps.getByText('topologies: 1 imported').waitFor();
    assert.deepEqual(await steps.locator('p').allTextContents(), [
      'importedlookups: 1 imported',
      'importedrules: 1 imported',
      'importedtasks: 2 imported',
      'importedpipelines: 1 imported',
      'importedtopologies: 1 imported',
    ]);
    await shoot(p, 'configuration-light');
    assert.deepEqual(await violations(p), []);
    // The fresh node holds the same records, seen in its own pages.
    await nav(p, 'Rules');
    await p.getByRole('link', { name: 'failed-login', exact: true }).waitFor();
    await nav(p, 'Lookups');
    await p
      .getByTestId('lookup-row')
      .filter({ hasText: 'owners' })
      .getByRole('cell', { name: '3', exact: true })
      .waitFor();
    await nav(p, 'Pipelines');
    await p.getByTestId('pipeline-row').filter({ hasText: '1 · parse (PARSE_KV) → 2 · rules (APPLY_RULES)' }).waitFor();
    await nav(p, 'Topologies');
    await p.getByTestId('topology-graph').getByText('story-alerts ⇢').waitFor();
    await other.close();
  });
});
