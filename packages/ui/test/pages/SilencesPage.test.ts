import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine } from '@weir/test-helpers/engine';
import { seriousViolations, shoot, signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The Silences page (docs/ui.md, "Silences") in Debian's chromium against the real UI server and
 * engine: a silence made in the form (two matchers, an end written as a duration) is stored as
 * typed; a regular expression that does not compile shows the API's message naming the matcher;
 * the state filter; a "silence similar" link fills the matchers; expire moves it to expired.
 */
let c: Console;
let page: Page;
let token: string;

type StoredSilence = {
  id: string;
  matchers: unknown;
  startsAt: string;
  endsAt: string;
  comment: string;
  state: string;
};

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-silences'), 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await c.node.createUser(token, 'uma');
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

/** A Mantine Select by its label (a combobox or a textbox, by version). */
const select = (scope: ReturnType<Page['getByRole']>, label: string) =>
  scope
    .getByRole('combobox', { name: label, exact: true })
    .or(scope.getByRole('textbox', { name: label, exact: true }))
    .first();

/** A choice of the state filter (its label; the radio itself is hidden). */
const stateChoice = (state: string) =>
  page.locator('.mantine-SegmentedControl-label', { hasText: new RegExp(`^${state}$`) });

const stored = async (): Promise<StoredSilence[]> =>
  (await c.node.call('GET', '/api/silences', { token })).body as StoredSilence[];

test('a silence made in the form: two matchers, ends 90m after its start; a bad regex shows the API message', async () => {
  await page.goto('/silences');
  await page.getByRole('heading', { name: 'Silences', exact: true }).waitFor();
  await page.getByRole('button', { name: 'New silence' }).click();
  const form = page.getByRole('dialog', { name: 'New silence' });
  await form.getByRole('textbox', { name: 'Field 1' }).fill('_rule.id');
  await form.getByRole('textbox', { name: 'Value 1' }).fill('failed-login');
  await form.getByRole('button', { name: 'Add matcher' }).click();
  await form.getByRole('textbox', { name: 'Field 2' }).fill('host.name');
  await select(form, 'Operator 2').click();
  await page.getByRole('option', { name: '=~ matches the regex', exact: true }).click();
  await form.getByRole('textbox', { name: 'Value 2' }).fill('web-(');
  await form.getByRole('textbox', { name: 'Starts' }).fill('2026-11-23T06:00:00Z');
  await form.getByRole('textbox', { name: 'Ends' }).fill('90m');
  await form.getByRole('textbox', { name: 'Comment' }).fill('web farm maintenance, change 4711');
  await form.getByRole('button', { name: 'Save silence' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  assert.match((await refusal.textContent()) ?? '', /matchers\.1\.value/);
  assert.deepEqual(await stored(), [], 'nothing stored');

  await form.getByRole('textbox', { name: 'Value 2' }).fill('web-[0-9]+');
  // a start a minute ahead: the silence is pending
  const start = new Date(Date.now() + 60_000).toISOString();
  await form.getByRole('textbox', { name: 'Starts' }).fill(start);
  await form.getByRole('button', { name: 'Save silence' }).click();
  await form.waitFor({ state: 'hidden' });
  const [s] = await stored();
  assert.deepEqual(
    [s!.matchers, s!.comment, s!.state, Date.parse(s!.endsAt) - Date.parse(s!.startsAt)],
    [
      [
        { field: '_rule.id', op: '=', value: 'failed-login' },
        { field: 'host.name', op: '=~', value: 'web-[0-9]+' },
      ],
      'web farm maintenance, change 4711',
      'pending',
      90 * 60_000,
    ],
  );
  const row = page.getByTestId('silence-row');
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /pending_rule\.id="failed-login"host\.name=~"web-\[0-9\]\+"/);
  assert.deepEqual(await seriousViolations(page), []);
  await shoot(page, 'silences-light');
});

test('a "silence similar" link fills the matchers; the state filter; expire', async () => {
  await page.goto(
    `/silences/new?match=${encodeURIComponent('_rule.id=noisy')}&match=${encodeURIComponent('user!=svc')}`,
  );
  const form = page.getByRole('dialog', { name: 'New silence' });
  assert.deepEqual(
    [
      await form.getByRole('textbox', { name: 'Field 1' }).inputValue(),
      await form.getByRole('textbox', { name: 'Value 1' }).inputValue(),
      await form.getByRole('textbox', { name: 'Field 2' }).inputValue(),
      await select(form, 'Operator 2').inputValue(),
      await form.getByRole('textbox', { name: 'Value 2' }).inputValue(),
    ],
    ['_rule.id', 'noisy', 'user', '!= does not equal', 'svc'],
  );
  await form.getByRole('textbox', { name: 'Comment' }).fill('noisy rule');
  await form.getByRole('button', { name: 'Save silence' }).click();
  await form.waitFor({ state: 'hidden' });
  await page.getByText('2 of 2 silences', { exact: true }).waitFor();

  await stateChoice('active').click();
  await page.getByText('1 of 2 silences', { exact: true }).waitFor();
  const noisy = (await stored()).find((s) => s.comment === 'noisy rule')!;
  await page.getByRole('button', { name: `Expire silence ${noisy.id}` }).click();
  await page.getByText('0 of 2 silences', { exact: true }).waitFor();
  await stateChoice('expired').click();
  await page.getByText('1 of 2 silences', { exact: true }).waitFor();
  assert.equal((await stored()).find((s) => s.id === noisy.id)!.state, 'expired');
  // an expired silence offers no edit and no expire
  assert.equal(await page.getByRole('button', { name: `Expire silence ${noisy.id}` }).count(), 0);
});

test('a user reads and makes silences too (the API lets every signed-in user silence)', async () => {
  const p = await (await c.context('light')).newPage();
  await signIn(p, 'uma', 'uma-pw');
  await p.goto('/silences');
  await p.getByText('of 2 silences', { exact: false }).waitFor();
  assert.equal(await p.getByRole('button', { name: 'New silence' }).count(), 1);
  await p.context().close();
});
