import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { UserDirectory } from '../../src/auth/user-directory.ts';
import { isDomainError } from '../../src/core/errors.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

/** The user rules on a real (SQLite) store: init, the last admin, roles, passwords, concurrent writes. */
let dir: string;
let store: SqliteConfigStore;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'weir-users-'));
  store = new SqliteConfigStore(dir);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusedWith = (code: string) => (e: unknown) => isDomainError(e) && e.code === code;

test('user directory: init, create, update, delete and the last-admin rule', async () => {
  const users = new UserDirectory(store, 1); // minimum length 1: the password policy has its own tests
  assert.equal(users.initialized, false);
  // Two concurrent inits: one wins, the other is refused (writes run one at a time).
  const [first, second] = await Promise.allSettled([
    users.init({ username: 'ada', password: 'pw', roles: [{ name: 'user' }] }),
    users.init({ username: 'bob', password: 'pw' }),
  ]);
  assert.equal(first.status, 'fulfilled');
  assert.ok(second.status === 'rejected' && refusedWith('ALREADY_INITIALIZED')(second.reason));
  const ada = users.get('ada');
  assert.deepEqual(
    ada.roles.map((r) => r.name),
    ['admin', 'user'],
    'the first user is always an admin',
  );
  assert.equal('passwordHash' in ada, false, 'the hash is never shown');

  const uma = await users.create({ username: 'uma', password: 'uma-pw' });
  assert.deepEqual(
    uma.roles.map((r) => r.name),
    ['user'],
  );
  await assert.rejects(users.create({ username: 'uma', password: 'x' }), refusedWith('USER_EXISTS'));
  assert.deepEqual(await users.authenticate('uma', 'uma-pw'), uma);
  assert.equal(await users.authenticate('uma', 'wrong'), undefined);
  assert.equal(await users.authenticate('nobody', 'uma-pw'), undefined);

  await assert.rejects(
    users.update('uma', { username: 'uma', roles: [{ name: 'admin' }] }, uma),
    refusedWith('ROLE_CHANGE_FORBIDDEN'),
  );
  await assert.rejects(users.update('uma', { username: 'other' }, ada), refusedWith('USERNAME_MISMATCH'));
  const renamed = await users.update('uma', { username: 'uma', name: 'Uma', password: '' }, uma);
  assert.equal(renamed.name, 'Uma');
  assert.deepEqual(await users.authenticate('uma', 'uma-pw'), renamed, 'an empty password keeps the old one');

  await assert.rejects(
    users.update('ada', { username: 'ada', roles: [{ name: 'user' }] }, ada),
    refusedWith('LAST_ADMIN'),
  );
  await assert.rejects(users.delete('ada', uma), refusedWith('LAST_ADMIN'));
  await assert.rejects(users.delete('ada', ada), refusedWith('SELF_DELETE'));
  await assert.rejects(users.delete('nobody', ada), refusedWith('USER_MISSING'));
  await users.update('uma', { username: 'uma', roles: [{ name: 'admin' }] }, ada);
  await users.delete('ada', uma);
  assert.deepEqual(
    users.list().map((u) => u.username),
    ['uma'],
  );
});
