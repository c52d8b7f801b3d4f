import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The rules a test would skip (components/SkippedRules.tsx), in Debian's chromium against the real
 * UI server and engine: a pipeline and a task whose APPLY_RULES names a rule that does not exist
 * (saved through the API, which allows it) — both tests show the engine's warning beside the result.
 */
let c: Console;
let page: Page;

before(async () => {
  c = await startConsole({ ...isolatedEngine('ui-skipped-rules'), 'weir.engine.autostart': 'false' });
  const token = await c.node.initAdmin();
  await post(c.node, token, '/api/rules', { id: 'disabled-one', name: 'Off', pdl: 'a=1', enabled: false });
  await post(c.node, token, '/api/tasks', { id: 1, name: 'parse', function: 'PARSE_KV', definition: {} });
  await post(c.node, token, '/api/tasks', {
    id: 2,
    name: 'rules',
    function: 'APPLY_RULES',
    definition: { rules: ['nope', 'disabled-one'] },
  });
  await post(c.node, token, '/api/pipelines', { id: 1, name: 'detect', tasks: [1, 2] });
  page = await (await c.context('light')).newPage();
  await signIn(page, 'admin', 'admin-pw');
});

after(async () => {
  await c?.stop();
});

test('the pipeline test names each skipped rule with its task, beside the result', async () => {
  await page.goto('/pipelines/1');
  const drawer = page.getByRole('dialog', { name: 'Pipeline 1' });
  await drawer.getByLabel('Raw record text').fill('a=1');
  await drawer.getByRole('button', { name: 'Run pipeline test' }).click();
  const warnings = drawer.getByTestId('pipeline-test-warnings');
  await warnings.waitFor();
  assert.deepEqual(await warnings.locator('p').allTextContents(), [
    'task rules: rule `nope` does not exist',
    'task rules: rule `disabled-one` is disabled',
  ]);
  assert.equal((await drawer.getByTestId('pipeline-result').textContent())?.trim(), 'null');
});

test('the task test shows the same warnings without the task name; none when no rule is skipped', async () => {
  await page.goto('/tasks/2');
  const drawer = page.getByRole('dialog', { name: 'Task 2' });
  await drawer.getByLabel('Event (raw text, or a JSON event)').fill('{"a":1}');
  await drawer.getByRole('button', { name: 'Run task test' }).click();
  const warnings = drawer.getByTestId('task-test-warnings');
  await warnings.waitFor();
  assert.deepEqual(await warnings.locator('p').allTextContents(), [
    'rule `nope` does not exist',
    'rule `disabled-one` is disabled',
  ]);
  await page.goto('/tasks/1');
  const parse = page.getByRole('dialog', { name: 'Task 1' });
  await parse.getByLabel('Event (raw text, or a JSON event)').fill('a=1');
  await parse.getByRole('button', { name: 'Run task test' }).click();
  await parse.getByTestId('task-test-result').waitFor();
  assert.equal(await parse.getByTestId('task-test-warnings').count(), 0);
});
