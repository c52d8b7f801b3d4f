import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { isDomainError } from '../../src/core/errors.ts';
import { Notifiers, shownNotifier } from '../../src/notify/notifiers.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-notifiers-'));
const store = new SqliteConfigStore(dir);
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const notifiers = new Notifiers(store);
const base = { id: 'n1', name: 'N', url: 'https://x.example/h', secret: 's'.repeat(16) };

test('stored with its defaults and secret; answered without the secret', async () => {
  const shown = await notifiers.create(base);
  assert.deepEqual(shown, {
    id: 'n1',
    name: 'N',
    url: 'https://x.example/h',
    matcher: {},
    rateLimitPerMinute: 60,
    enabled: true,
    secretSet: true,
  });
  assert.deepEqual(notifiers.stored(), [{ ...base, matcher: {}, rateLimitPerMinute: 60, enabled: true }]);
  assert.deepEqual(shownNotifier(notifiers.stored()[0]!), shown);
});

test('refusals are domain errors naming the field; nothing stored', async () => {
  for (const [body, code, message] of [
    [
      { ...base, id: 'n2', url: 'http://x.example' },
      'VALIDATION',
      "body.url must be an https:// URL, found 'http://x.example'",
    ],
    [{ ...base, id: 'n2', url: 'ftp://x' }, 'VALIDATION', "body.url must be an https:// URL, found 'ftp://x'"],
    [base, 'RESOURCE_EXISTS', 'Notifier already exists, can not create a new one. Please use update (PUT) endpoint.'],
  ] as const) {
    await assert.rejects(
      notifiers.create(body),
      (err) => isDomainError(err) && err.code === code && err.message === message,
    );
  }
  assert.deepEqual(
    notifiers.stored().map((n) => n.id),
    ['n1'],
  );
});

test('an update keeps the secret unless one is given', async () => {
  await notifiers.update('n1', { name: 'N2', url: 'https://y.example' });
  assert.equal(notifiers.stored()[0]!.secret, base.secret);
  await notifiers.update('n1', { name: 'N2', url: 'https://y.example', secret: 't'.repeat(16) });
  assert.equal(notifiers.stored()[0]!.secret, 't'.repeat(16));
  await notifiers.delete('n1');
  assert.deepEqual(notifiers.list(), []);
});
