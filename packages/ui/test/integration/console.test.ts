import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  apiAs,
  buttonsMatching,
  createReadOnlyUser,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  writeRuleWithSyntaxError,
  type Console,
} from '../helpers/console.ts';

/**
 * The Weir Console in a real browser (Debian's chromium) against the real UI server, engine and
 * broker: the end-to-end story, the role test, accessibility and screenshots of every page.
 */
let c: Console;
let admin: BrowserContext;
let page: Page;

before(async () => {
  c = await startConsole();
  admin = await c.context('light');
  page = await admin.newPage();
});
after(async () => {
  await c?.stop();
  // WEIR_UPDATE_DOC_SCREENSHOTS=1 copies this run's screenshots to docs/images (README, docs/ui.md).
  publishDocScreenshots([
    'init-light',
    'login-light',
    'overview-light',
    'rule-editor-light',
    'messages-light',
    'alerts-light',
    'overview-dark',
    'rule-editor-dark',
    'topics-dark',
    'topics-light',
    'rules-light',
    'tasks-light',
    'pipelines-light',
  ]);
});

/** Waits until the element with the test id shows a number above 0 (the overview refreshes every 2 s). */
async function waitForPositive(p: Page, testId: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (Number(await p.getByTestId(testId).textContent()) > 0) return;
    await p.waitForTimeout(500);
  }
  assert.fail(`${testId} stayed at ${await p.getByTestId(testId).textContent()}`);
}

const nav = (p: Page, label: string) =>
  p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();

describe('the end-to-end story of a new user', () => {
  test('first run: the init form creates the admin, then login', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome to Weir' }).waitFor();
    await shoot(page, 'init-light');
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Ada Admin');
    await page.getByRole('textbox', { name: /^Username/ }).fill('ada');
    await page.getByRole('textbox', { name: /^E-mail/ }).fill('ada@example.com');
    await page.locator('input[type=password]').fill('ada-password-1');
    await page.getByRole('button', { name: 'Create admin' }).click();
    await page.getByRole('heading', { name: 'Sign in to Weir' }).waitFor();
    await shoot(page, 'login-light');
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('textbox', { name: /^Username/ }).fill('ada');
    await page.locator('input[type=password]').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
    await page.locator('input[type=password]').fill('ada-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    assert.equal(await page.getByTestId('whoami').textContent(), 'ada (admin)');
  });

  test('the session survives a reload (httpOnly cookie, nothing in localStorage)', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    assert.doesNotMatch(stored, /eyJ/, 'no token in web storage');
    const cookies = await admin.cookies();
    const refresh = cookies.find((k) => k.name === 'weir_refresh');
    assert.ok(refresh, 'the UI server set the refresh cookie');
    assert.equal(refresh.httpOnly, true);
    assert.equal(refresh.secure, true);
    assert.equal(refresh.sameSite, 'Strict');
    assert.equal(await page.evaluate('document.cookie'), '', 'no script can read it');
  });

  test('a rule with a syntax error shows the error at its line and column; fixed, saved and tested on pasted events', async () => {
    await writeRuleWithSyntaxError(page, {
      lines: ['action="login" AND', 'status='],
      error: { line: 2, column: 8 },
      fix: '"failed"',
      events: ['{"user":"alice","action":"login","status":"failed"}', '{"user":"bob","action":"login","status":"ok"}'],
      matched: '1 of 2 events matched',
    });
    await shoot(page, 'rule-editor-light');
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('a topic created in the UI, a detection flow on it, an event produced in the message browser becomes an alert and moves the counters', async () => {
    await nav(page, 'Topics');
    await page.getByRole('button', { name: 'Create topic' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('auth-logs');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'auth-logs', exact: true }).waitFor();
    // Tasks, pipeline and topology through the API until their pages exist.
    for (const [url, body] of [
      ['/api/tasks', { id: 1, name: 'parse', description: '', function: 'PARSE_KV', definition: {} }],
      [
        '/api/tasks',
        { id: 2, name: 'rules', description: '', function: 'APPLY_RULES', definition: { rules: ['failed-login'] } },
      ],
      ['/api/pipelines', { id: 1, name: 'detect', description: '', tasks: [1, 2] }],
      [
        '/api/topologies',
        {
          id: 1,
          name: 'auth',
          description: '',
          pipelines: [1],
          input: { name: 'auth-logs' },
          output: [{ name: 'auth-alerts' }],
        },
      ],
    ] as const) {
      const res = await apiAs(page, { username: 'ada', password: 'ada-password-1' }, 'POST', url, body);
      assert.equal(res.status, 201, `${url}: ${res.text}`);
    }
    await nav(page, 'Messages');
    await page.getByRole('combobox', { name: 'Topic' }).fill('auth-logs');
    await page.getByRole('option', { name: 'auth-logs' }).click();
    await page.getByLabel('Value').fill('user=alice action=login status=failed');
    await page.getByLabel('Headers (JSON object)').fill('{"source":"console-test"}');
    // The engine may still be joining its group for the new topology: produce until it counts an alert.
    let alerted = false;
    for (let i = 0; i < 40 && !alerted; i++) {
      await page.getByRole('button', { name: 'Produce', exact: true }).click();
      await page.getByText('Produced to auth-logs').first().waitFor();
      await page.waitForTimeout(1500);
      const res = await apiAs(page, { username: 'ada', password: 'ada-password-1' }, 'GET', '/api/metrics/summary');
      alerted = (JSON.parse(res.text) as { alerts: { value: number }[] }).alerts.some((a) => a.value > 0);
    }
    assert.ok(alerted, 'the engine raised an alert for the produced event');
    await page.getByRole('button', { name: 'Read' }).click();
    await page.getByTestId('consume-status').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 30_000 });
    const row = page.getByTestId('message-row').first();
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /user=alice action=login status=failed/);
    await row.click();
    await page.getByRole('tab', { name: 'Headers (1)' }).click();
    assert.match(
      (await page.getByLabel('Message headers', { exact: true }).textContent()) ?? '',
      /"source": "console-test"/,
    );
    await shoot(page, 'messages-light');
    await page.keyboard.press('Escape');
    await nav(page, 'Alerts');
    const alertRow = page.getByTestId('alert-row').filter({ hasText: 'failed-login' }).first();
    await alertRow.waitFor({ timeout: 60_000 });
    await alertRow.getByRole('link', { name: /^Alert / }).click();
    const alertFacts = page.getByRole('table', { name: 'Alert facts' });
    await alertFacts.getByRole('link', { name: /^failed-login/ }).waitFor();
    await alertFacts.getByText('T1110 Brute Force').first().waitFor();
    await page.keyboard.press('Escape');
    await shoot(page, 'alerts-light');
    await nav(page, 'Overview');
    await waitForPositive(page, 'alerts');
    await waitForPositive(page, 'records-in');
    await shoot(page, 'overview-light');
  });

  test('Ctrl+K opens the palette and jumps to a page', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Command palette search' }).fill('Topi');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Topics' }).waitFor();
  });

  test('logout ends the session: a reload shows the login form', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Weir' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Weir' }).waitFor();
  });
});

const pagesToVisit: [string, string, string][] = [
  ['Overview', '/', 'overview'],
  ['Topics', '/topics', 'topics'],
  ['Messages', '/messages', 'messages'],
  ['Rules', '/rules', 'rules'],
  ['Rule failed-login', '/rules/failed-login', 'rule-editor'],
  ['Alerts', '/alerts', 'alerts'],
  ['Lookups', '/lookups', 'lookups'],
  ['Tasks', '/tasks', 'tasks'],
  ['Pipelines', '/pipelines', 'pipelines'],
  ['Topologies', '/topologies', 'topologies'],
  ['Configuration', '/configuration', 'configuration'],
  ['ATT&CK coverage', '/coverage', 'coverage'],
  ['Users', '/users', 'users'],
  ['Profile', '/profile', 'profile'],
];

describe('every page, light and dark: no serious or critical accessibility violation; screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme}`, async () => {
      const ctx = await c.context(scheme);
      const p = await ctx.newPage();
      await signIn(p, 'ada', 'ada-password-1');
      for (const [heading, url, name] of pagesToVisit) {
        await p.goto(url);
        await p.getByRole('heading', { name: heading, exact: true }).waitFor();
        await p.waitForLoadState('networkidle').catch(() => {});
        await shoot(p, `${name}-${scheme}`);
        assert.deepEqual(await seriousViolations(p), [], `${url} (${scheme})`);
      }
      await ctx.close();
    });
  }
});

describe('role test: a `user` sees no write control, and a forged write is refused', () => {
  test('user pages are read-only; POST /api/rules with the user token → 403', async () => {
    const uma = await createReadOnlyUser(page, { username: 'ada', password: 'ada-password-1' });
    const ctx = await c.context('light');
    const p = await ctx.newPage();
    await signIn(p, uma.username, uma.password);
    assert.equal(await p.getByTestId('whoami').textContent(), 'uma (user)');
    const writeControls =
      /^(Create topic|Delete|New rule|Import JSON|Save rule|Produce|Edit and re-produce|Start engine|Stop engine|Create)$/;
    // The configuration pages (lookups, tasks, pipelines, topologies, export/import).
    const configWriteControls =
      /^(New task|Save task|New pipeline|Save pipeline|Add task|New topology|Save topology|Add output|Edit|Remove|Replace|Choose a file|Save lookup|Choose an exported file|Import configuration|Add .* step)$/;
    const writeOrConfigControls = new RegExp(`${writeControls.source}|${configWriteControls.source}`);
    for (const [heading, url, name] of pagesToVisit) {
      await p.goto(url);
      await p.getByRole('heading', { name: heading, exact: true }).waitFor();
      await p.waitForLoadState('networkidle').catch(() => {});
      assert.deepEqual(await buttonsMatching(p, writeOrConfigControls), [], `${url} shows write controls to a user`);
      // A record of the configuration pages opens read-only: no write control in its drawer either.
      const view = { '/tasks': 'View task 1', '/pipelines': 'View pipeline 1', '/topologies': 'View topology 1' }[url];
      if (view) {
        await p.getByRole('button', { name: view }).click();
        const drawer = p.getByRole('dialog');
        await drawer.getByRole('textbox', { name: /^Name/ }).waitFor();
        assert.equal(
          await drawer.getByRole('textbox', { name: /^Name/ }).getAttribute('readonly'),
          '',
          `${view}: the name is read-only`,
        );
        assert.deepEqual(
          await buttonsMatching(drawer, writeOrConfigControls),
          [],
          `${view} shows write controls to a user`,
        );
        await p.keyboard.press('Escape');
        // the screenshot below shows the page, not the drawer's closing transition
        await drawer.waitFor({ state: 'hidden' });
      }
      if (url === '/rules') {
        const toggle = p.getByRole('switch', { name: 'Rule failed-login enabled' });
        assert.equal(await toggle.isDisabled(), true, 'the enabled toggle is read-only');
      }
      await shoot(p, `${name}-as-user`);
    }
    const forged = await apiAs(p, uma, 'POST', '/api/rules', {
      id: 'forged',
      name: 'forged',
      pdl: 'a=1',
      enabled: true,
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.text, '');
    const produce = await apiAs(p, uma, 'POST', '/api/topics/auth-logs/produce', {
      messages: [{ value: 'x' }],
    });
    assert.equal(produce.status, 403);
    await ctx.close();
  });
});
