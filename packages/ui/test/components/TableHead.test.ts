import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isolatedEngine, post } from '@weir/test-helpers/engine';
import { signIn, startConsole, type Console } from '../helpers/console.ts';

/**
 * The header rows the pages' tables share (components/TableHead.tsx), in Debian's chromium against
 * the real UI server and engine: each header in order, and an admin-only column left out for a user.
 */
let c: Console;
let token: string;
const engine = isolatedEngine('ui-table-head');
const topic = `${engine['weir.topic.prefix']}_heads`;

before(async () => {
  c = await startConsole({ ...engine, 'weir.engine.autostart': 'false' });
  token = await c.node.initAdmin();
  await post(c.node, token, '/api/topics', { name: topic, numberOfPartitions: 1, replicationFactor: 1 });
  await c.node.createUser(token, 'uma');
});

after(async () => {
  await c?.stop();
});

async function signedIn(username: string, password: string): Promise<Page> {
  const p = await (await c.context('light')).newPage();
  await signIn(p, username, password);
  return p;
}

/** The header cells of the table named `name`, once its first row is there. */
async function headers(p: Page, name: string): Promise<string[]> {
  const table = p.getByRole('table', { name });
  await table.locator('tbody tr').first().waitFor();
  return table.locator('thead th').allTextContents();
}

test('each table shows its headers in order; the admin-only Actions column is an admin’s only', async () => {
  const admin = await signedIn('admin', 'admin-pw');
  await admin.goto(`/topics/${topic}`);
  assert.deepEqual(await headers(admin, 'Partitions'), [
    'Partition',
    'Leader',
    'Replicas',
    'In sync',
    'Low offset',
    'High offset',
    'Messages',
    'Size',
  ]);
  assert.deepEqual(await headers(admin, 'Settings'), ['Setting', 'Value', 'Source', 'Actions']);
  await admin.goto('/users');
  assert.deepEqual(await headers(admin, 'Users'), ['Username', 'Name', 'E-mail', 'Roles', 'Actions']);

  const user = await signedIn('uma', 'uma-pw');
  await user.goto(`/topics/${topic}`);
  assert.deepEqual(await headers(user, 'Settings'), ['Setting', 'Value', 'Source']);
});
