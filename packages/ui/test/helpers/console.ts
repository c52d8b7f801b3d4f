import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';
import { buildUi, uiBuildStale } from '../../../../scripts/ui-build.ts';
import { loadUiSettings } from '../../server/ui-settings.ts';
import { startUiServer, type UiServer } from '../../server/ui-server.ts';

const uiRoot = path.resolve(import.meta.dirname, '../..');
/** Screenshots of every page, light and dark, for a reviewer (git-ignored). */
export const screenshotDir = path.join(uiRoot, 'test-output', 'screenshots');
export const chromiumPath = process.env.WEIR_CHROMIUM ?? '/usr/bin/chromium';

export interface Console {
  readonly node: TestNode;
  readonly ui: UiServer;
  readonly browser: Browser;
  context(scheme: 'light' | 'dark'): Promise<BrowserContext>;
  stop(): Promise<void>;
}

/**
 * A real engine on the test broker, the real UI server in front of it, and Debian's chromium.
 * `overrides`: the engine's settings (e.g. isolatedEngine(): its own consumer group and topics).
 */
export async function startConsole(overrides: Parameters<typeof startTestNode>[0] = {}): Promise<Console> {
  if (uiBuildStale()) buildUi(() => {});
  return consoleFor(await startTestNode(overrides));
}

/** The UI server and chromium in front of a node already started (one node of a cluster). */
export async function consoleFor(node: TestNode): Promise<Console> {
  if (uiBuildStale()) buildUi(() => {});
  const ui = await startUiFor(node);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  mkdirSync(screenshotDir, { recursive: true });
  return {
    node,
    ui,
    browser,
    async context(scheme) {
      const ctx = await browser.newContext({
        ignoreHTTPSErrors: true,
        colorScheme: scheme,
        baseURL: ui.url,
        viewport: { width: 1400, height: 900 },
      });
      ctx.setDefaultTimeout(20_000);
      return ctx;
    },
    async stop() {
      await browser.close().catch(() => {});
      await ui.close();
      await node.stop();
    },
  };
}

/** The real UI server (built app, API proxy) in front of a test node, on a free port. */
export async function startUiFor(node: TestNode): Promise<UiServer> {
  const api = new URL(node.url);
  const settings = loadUiSettings(undefined, {
    'server.host': '127.0.0.1',
    'server.port': 0,
    'api.host': '127.0.0.1',
    'api.port': Number(api.port),
    'weir.home': node.home,
  });
  return startUiServer(settings, path.join(uiRoot, 'dist'));
}

/** axe-core on the page: the serious and critical violations, described (empty when none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A toast or drawer still fading in is measured at part opacity, below its real contrast: wait for
  // the page's finite animations and transitions to end (spinners run forever and are not waited for).
  await page
    .waitForFunction(
      // a function, not a string: the console's CSP refuses eval, which a string predicate needs when it polls
      () =>
        (
          globalThis as unknown as {
            document: {
              getAnimations(): { playState: string; effect: { getTiming(): { iterations?: number } } | null }[];
            };
          }
        ).document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => {});
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
    );
}

export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false });
}

const docsImages = path.resolve(uiRoot, '../../docs/images');

/**
 * With WEIR_UPDATE_DOC_SCREENSHOTS=1, copies this run's screenshots `names` to
 * docs/images/ui-<name>.png (the ones README.md and docs/ui.md show); otherwise does nothing.
 */
export function publishDocScreenshots(names: readonly string[]): void {
  if (process.env.WEIR_UPDATE_DOC_SCREENSHOTS !== '1') return;
  mkdirSync(docsImages, { recursive: true });
  for (const name of names)
    copyFileSync(path.join(screenshotDir, `${name}.png`), path.join(docsImages, `ui-${name}.png`));
}

/** Signs in through the login form and waits for the overview. */
export async function signIn(p: Page, username: string, password: string): Promise<void> {
  await p.goto('/');
  await p.getByRole('heading', { name: 'Sign in to Weir' }).waitFor();
  await p.getByRole('textbox', { name: /^Username/ }).fill(username);
  await p.locator('input[type=password]').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByRole('heading', { name: 'Overview' }).waitFor();
}

/**
 * The rule editor's story: a new rule whose PDL (typed line by line) has a syntax error, the error
 * shown at its line and column and marked in the editor, fixed by typing `fix`, saved with the
 * technique T1110, then tested on pasted events until `matched` ("1 of 2 events matched") shows.
 */
export async function writeRuleWithSyntaxError(
  p: Page,
  rule: {
    lines: readonly string[];
    error: { line: number; column: number };
    fix: string;
    events: readonly string[];
    matched: string;
  },
): Promise<void> {
  await p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Rules', exact: true }).click();
  await p.getByRole('button', { name: 'New rule' }).click();
  await p.getByRole('textbox', { name: /^Id/ }).fill('failed-login');
  await p.getByRole('textbox', { name: /^Name/ }).fill('Failed login');
  await p.getByRole('textbox', { name: 'PDL query' }).click();
  for (const [i, line] of rule.lines.entries()) {
    if (i > 0) await p.keyboard.press('Enter');
    await p.keyboard.type(line);
    await p.keyboard.press('Escape');
  }
  // The check runs after each typing pause: wait for the one of the whole text.
  const { line, column } = rule.error;
  const error = p
    .getByTestId('pdl-status')
    .getByRole('alert')
    .filter({ hasText: `column ${column}` });
  await error.waitFor();
  assert.match(
    (await error.textContent()) ?? '',
    new RegExp(`^Line ${line}, column ${column}: .*expected a value after '='`),
  );
  // The error is also marked in the editor at that place.
  await p.locator('.cm-lintRange-error').first().waitFor();
  await p.keyboard.type(rule.fix);
  await p.keyboard.press('Escape');
  await p.getByTestId('pdl-status').getByText('Valid PDL').waitFor();
  const annotations = p.getByRole('combobox', { name: 'Annotations: ATT&CK techniques and other tags' });
  await annotations.fill('T1110');
  await annotations.press('Enter');
  // The picker's list stays open on the field: closed, so that it covers nothing.
  await annotations.press('Escape');
  await p.getByRole('button', { name: 'Save rule' }).click();
  await p.getByRole('heading', { name: 'Rule failed-login', exact: true }).waitFor();
  await p.getByLabel('Events (a JSON array, or one JSON object per line)').fill(rule.events.join('\n'));
  await p.getByRole('button', { name: 'Run test' }).click();
  await p.getByTestId('test-results').getByText(rule.matched).waitFor();
}

/** A username and password to sign in with. */
export interface Login {
  username: string;
  password: string;
}

/** Uma, the read-only account (role `user`) the role tests sign in as. */
export const readOnlyUser: Login = { username: 'uma', password: 'uma-password-1' };

/** Creates Uma (role `user`) through the API as `admin`, from page `p`; her login. */
export async function createReadOnlyUser(p: Page, admin: Login): Promise<Login> {
  const created = await apiAs(p, admin, 'POST', '/api/users', {
    name: 'Uma User',
    username: readOnlyUser.username,
    email: 'uma@example.com',
    password: readOnlyUser.password,
    roles: [{ name: 'user' }],
  });
  assert.equal(created.status, 201, created.text);
  return readOnlyUser;
}

/**
 * Signs `login` in on a new page in the light, then the dark scheme; runs `check` on it, then axe-core
 * (no serious violation may remain) and closes it.
 */
export async function inBothSchemes(
  c: Console,
  login: Login,
  check: (p: Page, scheme: 'light' | 'dark') => Promise<void>,
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    const ctx = await c.context(scheme);
    const p = await ctx.newPage();
    await signIn(p, login.username, login.password);
    await check(p, scheme);
    assert.deepEqual(await seriousViolations(p), [], scheme);
    await ctx.close();
  }
}

/** The texts (trimmed) of the buttons in `where` (a page, a dialog) that `pattern` matches: a user's must be none. */
export async function buttonsMatching(where: Page | Locator, pattern: RegExp): Promise<string[]> {
  const texts = await where.getByRole('button').allTextContents();
  return texts.map((b) => b.trim()).filter((b) => pattern.test(b));
}

/** Opens the console and initialises its engine from the page (POST /api/init) with admin `grace`: the status. */
export async function initAdmin(p: Page, password: string): Promise<number> {
  await p.goto('/');
  return p.evaluate(
    async (password) =>
      (
        await fetch('/api/init', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Grace Admin',
            username: 'grace',
            email: 'grace@example.com',
            password,
            roles: [{ name: 'admin' }],
          }),
        })
      ).status,
    password,
  );
}

/**
 * A call to the API from the page (through the UI server), signed in anew as `login`: the status and
 * body text (`login refused` with the login's status when the sign-in is refused).
 */
export async function apiAs(
  p: Page,
  login: Login,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return p.evaluate(
    async ({ method, url, body, login }) => {
      const res0 = await fetch('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(login),
      });
      if (res0.status !== 200) return { status: res0.status, text: 'login refused' };
      const { access_token } = (await res0.json()) as { access_token: string };
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    { method, url, body, login },
  );
}

/** The cells of a table's body rows, as text. */
export async function tableRows(p: Page, name: string): Promise<string[][]> {
  return p
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** The cells of a virtualised ARIA table's body rows in the page (components/VirtualTable.tsx), as text. */
export async function gridRows(p: Page, name: string): Promise<string[][]> {
  return p
    .getByRole('table', { name })
    .locator('[role=row]:not([aria-rowindex="1"])')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('[role=cell]')].map((cell) => cell.textContent ?? '')),
    );
}
