import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  apiAs,
  initAdmin,
  publishDocScreenshots,
  seriousViolations,
  shoot,
  signIn,
  startConsole,
  type Console,
} from '../helpers/console.ts';

/**
 * The Weir Console's Users, Profile and ATT&CK coverage pages, the message browser's PDL filter,
 * the rule editor's correlation outputs and the Ctrl+K palette's resources, in Debian's chromium
 * against the real UI server, engine and broker.
 */
let c: Console;
let admin: BrowserContext;
let page: Page;
const adminPassword = 'grace-password-1';

const api = (
  p: Page,
  method: string,
  url: string,
  body?: unknown,
  login = { username: 'grace', password: adminPassword },
) => apiAs(p, login, method, url, body);

async function loginStatus(p: Page, username: string, password: string): Promise<number> {
  return p.evaluate(
    async ({ username, password }) =>
      (
        await fetch('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        })
      ).status,
    { username, password },
  );
}

const nav = (p: Page, label: string) =>
  p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();

before(async () => {
  c = await startConsole();
  admin = await c.context('light');
  page = await admin.newPage();
  const init = await initAdmin(page, adminPassword);
  assert.equal(init, 201);
  for (const rule of [
    {
      id: 'guess',
      name: 'Password guessing',
      pdl: 'action="login" AND status="failed"',
      annotations: ['attack.t1110.001', 'attack.credential_access'],
      enabled: true,
    },
    {
      id: 'spray',
      name: 'Password spraying',
      pdl: 'action="login"',
      annotations: ['T1110.003', 'T9999'],
      enabled: true,
    },
    { id: 'shell', name: 'Shell (disabled)', pdl: 'process="bash"', annotations: ['T1059.004'], enabled: false },
    {
      id: 'burst',
      name: 'Failed login burst',
      pdl: 'event_count timespan=5m group_by user where _aggregation.value >= 3',
      annotations: ['T1110'],
      enabled: true,
    },
  ]) {
    const res = await api(page, 'POST', '/api/rules', { description: '', ...rule });
    assert.equal(res.status, 201, res.text);
  }
  // The logins above went through the UI server, which set its refresh cookie: sign in afresh.
  await admin.clearCookies();
  await signIn(page, 'grace', adminPassword);
});

after(async () => {
  await c?.stop();
  publishDocScreenshots(['coverage-matrix-light', 'users-admin-light', 'profile-user-dark']);
});

describe('ATT&CK coverage', () => {
  test('the matrix marks techniques covered by enabled rules; a covered cell links to its rules', async () => {
    await nav(page, 'ATT&CK coverage');
    await page.getByRole('heading', { name: 'ATT&CK coverage', exact: true }).waitFor();
    // Brute Force (T1110) is covered directly and through two sub-techniques, by 3 enabled rules.
    // The summary reads "0 … by 0 enabled rules" until the rules have loaded: wait for them.
    await page
      .getByTestId('coverage-summary')
      .filter({ hasText: /by [1-9]\d* enabled rule/ })
      .waitFor();
    assert.match(
      (await page.getByTestId('coverage-summary').textContent()) ?? '',
      /^1 of \d{3} techniques covered by 3 enabled rules \(green/,
    );
    const tactics = await page.getByTestId('attack-matrix').getByRole('heading', { level: 2 }).allTextContents();
    assert.equal(tactics.length, 14);
    assert.match(tactics[0]!, /^Reconnaissance/);
    assert.match(tactics[7]!, /^Credential Access1 \/ \d+$/);
    const brute = page.getByRole('link', { name: 'T1110 Brute Force: 3 enabled rules' });
    await brute.waitFor();
    assert.equal(
      await page.locator('[data-technique="T1059"].attack-covered').count(),
      0,
      'a disabled rule covers nothing',
    );
    assert.match(
      (await page.getByTestId('disabled-only').textContent()) ?? '',
      /T1059\.004 Command and Scripting Interpreter: Unix Shell/,
    );
    assert.match(
      (await page.getByRole('status').filter({ hasText: 'Annotations not in the ATT&CK table' }).textContent()) ?? '',
      /T9999 \(spray\)/,
    );
    // Techniques not covered are in the matrix too, unless "covered only" is on.
    await page.locator('[data-technique="T1595"]').waitFor();
    await page.getByLabel(/^Covered techniques only/).check();
    assert.equal(await page.locator('[data-technique="T1595"]').count(), 0);
    assert.deepEqual(await page.getByTestId('attack-matrix').getByRole('heading', { level: 2 }).allTextContents(), [
      tactics[7],
    ]);
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, 'coverage-matrix-light');
    await page.getByRole('link', { name: /^T1110\.001 Password Guessing \(1\)$/ }).click();
    await page.getByRole('heading', { name: 'Rules', exact: true }).waitFor();
    await page
      .getByTestId('technique-filter')
      .getByText('Technique T1110.001 Brute Force: Password Guessing')
      .waitFor();
    await page
      .getByTestId('rule-count')
      .filter({ hasText: /^1 of 4 rules$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Clear the technique filter T1110.001' }).click();
    await page
      .getByTestId('rule-count')
      .filter({ hasText: /^4 of 4 rules$/ })
      .waitFor();
  });
});

describe('users and profiles', () => {
  test('an admin creates a user (the password policy shown), edits roles, resets the password, deletes', async () => {
    await nav(page, 'Users');
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByRole('textbox', { name: /^Username/ }).fill('uma');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Uma User');
    await dialog.getByRole('textbox', { name: /^E-mail/ }).fill('uma@example.com');
    await dialog.getByLabel(/^Password/).fill('short');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog
      .getByRole('alert')
      .filter({
        hasText: /The password does not meet the password policy: it has 5 characters and must have at least \d+/,
      })
      .waitFor();
    await dialog.getByLabel(/^Password/).fill('uma-password-1');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // Created, the dialog closes (axe below must not see it fading out) and the list shows the user.
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByTestId('user-row').filter({ hasText: 'uma' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /umaUma Useruma@example\.comuser/);
    assert.equal(
      await page.getByRole('button', { name: 'Delete grace' }).isDisabled(),
      true,
      'nobody deletes themselves',
    );
    await shoot(page, 'users-admin-light');
    assert.deepEqual(await seriousViolations(page), []);

    await page.getByRole('button', { name: 'Edit uma' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit user uma' });
    await edit.getByRole('checkbox', { name: 'admin' }).check();
    await edit.getByText('Changing roles signs uma out of every session.').waitFor();
    await edit.getByRole('button', { name: 'Save user' }).click();
    await page.getByTestId('user-row').filter({ hasText: 'uma' }).filter({ hasText: 'admin' }).waitFor();
    const stored = JSON.parse((await api(page, 'GET', '/api/users/uma')).text) as { roles: { name: string }[] };
    assert.deepEqual(stored.roles.map((r) => r.name).sort(), ['admin', 'user']);

    await page.getByRole('button', { name: 'Reset password of uma' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset password of uma' });
    await reset.getByLabel(/^New password/).fill('uma-new-password-2');
    await reset.getByLabel(/^Repeat the new password/).fill('uma-new-password-X');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.getByRole('alert').filter({ hasText: 'The two passwords differ.' }).waitFor();
    await reset.getByLabel(/^Repeat the new password/).fill('uma-new-password-2');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password of uma reset; their sessions have ended').waitFor();
    assert.equal(await loginStatus(page, 'uma', 'uma-password-1'), 401);
    assert.equal(await loginStatus(page, 'uma', 'uma-new-password-2'), 200);

    await page.getByRole('button', { name: 'Delete uma' }).click();
    await page.getByRole('dialog', { name: 'Delete user uma' }).getByRole('button', { name: 'Delete uma' }).click();
    await page
      .getByTestId('user-count')
      .filter({ hasText: /^1 of 1 users$/ })
      .waitFor();
    assert.equal((await api(page, 'GET', '/api/users/uma')).status, 404);
  });

  test('every user edits their own profile and changes their own password (the current one checked)', async () => {
    const created = await api(page, 'POST', '/api/users', {
      name: 'Ursula',
      username: 'ursula',
      email: 'u@example.com',
      password: 'ursula-password-1',
      roles: [{ name: 'user' }],
    });
    assert.equal(created.status, 201, created.text);
    const ctx = await c.context('dark');
    const p = await ctx.newPage();
    await signIn(p, 'ursula', 'ursula-password-1');
    const links = await p.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents();
    assert.ok(!links.includes('Users'), 'a user has no Users page in the navigation');
    assert.ok(links.includes('Profile') && links.includes('ATT&CK coverage'));
    await p.goto('/users');
    await p.getByText('Only an admin manages users.').waitFor();
    assert.equal(await p.getByRole('button', { name: 'Create user' }).count(), 0);
    await nav(p, 'Profile');
    await p.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await p.getByRole('textbox', { name: /^Name/ }).fill('Ursula K.');
    await p.getByRole('button', { name: 'Save profile' }).click();
    await p.getByText('Profile saved').waitFor();
    assert.equal(
      (
        JSON.parse(
          (await api(p, 'GET', '/api/users/ursula', undefined, { username: 'ursula', password: 'ursula-password-1' }))
            .text,
        ) as { name: string }
      ).name,
      'Ursula K.',
    );
    await p.getByLabel(/^Current password/).fill('not-my-password');
    await p.getByLabel(/^New password/).fill('ursula-password-2');
    await p.getByLabel(/^Repeat the new password/).fill('ursula-password-2');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    await p.getByLabel(/^Current password/).fill('ursula-password-1');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.getByText('Password changed; your other sessions have ended').waitFor();
    assert.equal(await loginStatus(p, 'ursula', 'ursula-password-1'), 401);
    // This session goes on with the new password, and survives a reload.
    await p.reload();
    await p.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    assert.equal(await p.getByTestId('whoami').textContent(), 'ursula (user)');
    await shoot(p, 'profile-user-dark');
    assert.deepEqual(await seriousViolations(p), []);
    await nav(p, 'ATT&CK coverage');
    await p.getByTestId('coverage-summary').filter({ hasText: 'covered by 3 enabled rules' }).waitFor();
    await shoot(p, 'coverage-matrix-dark');
    assert.deepEqual(await seriousViolations(p), []);
    await ctx.close();
  });
});

describe('message browser: PDL filter', () => {
  test('a PDL query filters the held messages; an error is shown at its line and column', async () => {
    const topic = await api(page, 'POST', '/api/topics', {
      name: 'pdl-filter',
      numberOfPartitions: 1,
      replicationFactor: 1,
    });
    assert.equal(topic.status, 201, topic.text);
    const produced = await api(page, 'POST', '/api/topics/pdl-filter/produce', {
      messages: [
        { value: '{"user":"alice","action":"login","status":"failed","attempts":7}' },
        { value: '{"user":"bob","action":"login","status":"ok","attempts":1}' },
        { value: 'user=carol action=logout' },
      ],
    });
    assert.equal(produced.status, 201, produced.text);
    await page.goto('/messages?topic=pdl-filter');
    await page.getByRole('button', { name: 'Read' }).click();
    await page
      .getByTestId('message-count')
      .filter({ hasText: /^3 of 3 messages$/ })
      .waitFor({ timeout: 30_000 });
    await page.locator('label', { hasText: /^PDL$/ }).click();
    const filter = page.getByRole('textbox', { name: 'PDL filter' });
    await filter.fill('status="failed" AND attempts > 5');
    await page
      .getByTestId('message-count')
      .filter({ hasText: /^1 of 3 messages$/ })
      .waitFor();
    assert.match((await page.getByTestId('message-row').first().textContent()) ?? '', /alice/);
    // A value that is not JSON is the event {"_raw": text}.
    await filter.fill('_raw="*carol*"');
    // Same count as before: wait for the row itself to change.
    await page.getByTestId('message-row').filter({ hasText: 'carol' }).waitFor();
    assert.equal(await page.getByTestId('message-count').textContent(), '1 of 3 messages');
    assert.equal(await page.getByTestId('message-row').count(), 1);
    await filter.fill('action="login" AND\nattempts >');
    const error = page.getByTestId('pdl-filter-error').getByRole('alert');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /^Line 2, column 11: expected a number, string or field after '>'/);
    await page
      .getByTestId('message-count')
      .filter({ hasText: /^0 of 3 messages$/ })
      .waitFor();
    await filter.fill('event_count timespan=5m group_by user');
    await page
      .getByTestId('pdl-filter-error')
      .getByText(/cannot hold correlation stages/)
      .waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.locator('label', { hasText: /^Text$/ }).click();
    await page.getByRole('textbox', { name: 'Filter messages' }).fill('BOB');
    await page
      .getByTestId('message-count')
      .filter({ hasText: /^1 of 3 messages$/ })
      .waitFor();
  });
});

describe('rule editor: correlation outputs over a multi-event sample', () => {
  test('an event_count rule tested over pasted events shows the correlation output', async () => {
    await page.goto('/rules/burst');
    await page.getByRole('heading', { name: 'Rule burst' }).waitFor();
    await page
      .getByLabel('Events (a JSON array, or one JSON object per line)')
      .fill(
        [
          '{"user":"bob","_time":1000}',
          '{"user":"bob","_time":2000}',
          '{"user":"amy","_time":2500}',
          '{"user":"bob","_time":3000}',
        ].join('\n'),
      );
    await page.getByRole('button', { name: 'Run test' }).click();
    const results = page.getByTestId('correlation-results');
    await results.getByText('1 correlation output', { exact: true }).waitFor();
    const output = JSON.parse((await results.locator('pre, code').first().textContent()) ?? '') as {
      user: string;
      _aggregation: { value: number };
    };
    assert.equal(output.user, 'bob');
    assert.equal(output._aggregation.value, 3);
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, 'rule-correlation-light');
  });
});

describe('rule editor: events from a topic', () => {
  test('messages that are not JSON objects are skipped and counted; the rest are tested', async () => {
    // pdl-filter (the message browser's test above) holds two JSON events and one key=value text
    await page.goto('/rules/spray');
    await page.getByRole('heading', { name: 'Rule spray' }).waitFor();
    await page.getByRole('combobox', { name: 'Take events from topic' }).fill('pdl-filter');
    await page.getByRole('option', { name: 'pdl-filter', exact: true }).click();
    await page.getByRole('button', { name: 'Load events' }).click();
    await page
      .getByTestId('sample-info')
      .filter({ hasText: /^Loaded 2 events from pdl-filter; skipped 1 message that is not a JSON object\.$/ })
      .waitFor({ timeout: 30_000 });
    const sample = await page.getByLabel('Events (a JSON array, or one JSON object per line)').inputValue();
    assert.deepEqual(
      sample.split('\n').map((l) => (JSON.parse(l) as { user: string }).user),
      ['alice', 'bob'],
    );
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByTestId('test-results').getByText('2 of 2 events matched', { exact: true }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
  });
});

describe('Ctrl+K palette', () => {
  const open = async (query: string) => {
    const search = page.getByRole('textbox', { name: 'Command palette search' });
    // The shortcut toggles the palette: wait until the last jump has closed it.
    await search.waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+k');
    await search.fill(query);
    return search;
  };
  test('jumps to a rule, a topic and a user by name or id', async () => {
    await open('Password spraying');
    await page.getByRole('button', { name: /Password spraying/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Rule spray' }).waitFor();
    await open('pdl-filter');
    await page
      .getByRole('button', { name: /pdl-filter/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Topics', exact: true }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Search topics' }).inputValue(), 'pdl-filter');
    await open('ursula');
    await page.getByRole('button', { name: /Ursula K\./ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Edit user ursula' }).waitFor();
    await page.keyboard.press('Escape');
    await open('cover');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'ATT&CK coverage', exact: true }).waitFor();
  });

  test('Enter jumps to the first match even when the resources arrive after the query was typed', async () => {
    // The rules answer is held back until the query is in the box, as on a loaded machine.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rulesList = (url: URL) => url.pathname === '/api/rules';
    await page.route(rulesList, async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    try {
      // A reload forgets what earlier openings of the palette loaded.
      await page.reload();
      await page.getByRole('button', { name: 'Command palette (Ctrl+K)' }).waitFor();
      const search = await open('Password spraying');
      await page.getByText('Loading…').waitFor();
      release();
      await page.getByRole('button', { name: /Password spraying/ }).waitFor();
      await search.press('Enter');
      await page.getByRole('heading', { name: 'Rule spray' }).waitFor();
    } finally {
      release();
      await page.unroute(rulesList);
    }
  });

  test('jumps to a task and a topology: their page opens it, closing goes back to the list; an unknown id says so', async () => {
    for (const [url, body] of [
      ['/api/topics', { name: 'palette-auth', numberOfPartitions: 1, replicationFactor: 1 }],
      [
        '/api/tasks',
        { id: 71, name: 'kv-parse-auth', description: 'palette jump', function: 'PARSE_KV', definition: {} },
      ],
      ['/api/pipelines', { id: 72, name: 'palette-pipeline', description: '', tasks: [71] }],
      [
        '/api/topologies',
        {
          id: 73,
          name: 'auth-flow-palette',
          description: '',
          pipelines: [72],
          input: { name: 'palette-auth' },
          output: [],
        },
      ],
    ] as const) {
      const res = await api(page, 'POST', url, body);
      assert.equal(res.status, 201, `${url}: ${res.text}`);
    }
    await open('kv-parse-auth');
    await page.getByRole('button', { name: /kv-parse-auth/ }).waitFor();
    await page.keyboard.press('Enter');
    const task = page.getByRole('dialog', { name: 'Task 71' });
    await task.waitFor();
    assert.equal(new URL(page.url()).pathname, '/tasks/71');
    assert.equal(await task.getByRole('textbox', { name: /^Name/ }).inputValue(), 'kv-parse-auth');
    await page.keyboard.press('Escape');
    await task.waitFor({ state: 'hidden' });
    await page.waitForURL((u) => u.pathname === '/tasks');
    await page.getByRole('cell', { name: 'kv-parse-auth', exact: true }).waitFor();

    await open('auth-flow-palette');
    await page.getByRole('button', { name: /auth-flow-palette/ }).waitFor();
    await page.keyboard.press('Enter');
    const topology = page.getByRole('dialog', { name: 'Topology 73' });
    await topology.waitFor();
    assert.equal(new URL(page.url()).pathname, '/topologies/73');
    assert.equal(await topology.getByRole('textbox', { name: /^Name/ }).inputValue(), 'auth-flow-palette');
    await page.keyboard.press('Escape');
    await topology.waitFor({ state: 'hidden' });
    await page.waitForURL((u) => u.pathname === '/topologies');
    // The graph stays on the topology the link named.
    await page.getByRole('heading', { name: 'Topology 73 · auth-flow-palette' }).waitFor();

    await page.goto('/tasks/4242');
    await page.getByRole('alert').filter({ hasText: 'There is no task 4242.' }).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
    await page.goto('/topologies/4242');
    await page.getByRole('alert').filter({ hasText: 'There is no topology 4242.' }).waitFor();
  });
});
