import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { compile, type IndexedLookupTable, type LookupTable } from '@weir/pdl';
import { LookupTables, storedLookups } from '../../src/rules/lookup-tables.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

const rowsOf = (t: LookupTable | IndexedLookupTable | undefined) => (t && 'rows' in t ? t.rows : undefined);

test('a table is read when first asked for and kept until its lookup is forgotten; a missing id is not kept', () => {
  const reads: string[] = [];
  const rows = new Map([['admins', [{ name: 'bob', role: 'admin' }]]]);
  const tables = new LookupTables((id) => (reads.push(id), rows.get(id)));
  assert.equal(reads.length, 0, 'nothing read before it is asked for');
  const admins = tables.get('admins');
  assert.deepEqual(rowsOf(admins), [{ name: 'bob', role: 'admin' }]);
  assert.strictEqual(tables.get('admins'), admins, 'kept: the index PDL builds on it survives');
  assert.equal(tables.get('gone'), undefined);
  assert.equal(tables.get('gone'), undefined);
  assert.deepEqual(reads, ['admins', 'gone', 'gone']);

  rows.set('admins', [{ name: 'eve', role: 'admin' }]);
  assert.strictEqual(tables.get('admins'), admins, 'a change is seen only once the lookup is forgotten');
  tables.forget('admins');
  const changed = tables.get('admins');
  assert.deepEqual(rowsOf(changed), [{ name: 'eve', role: 'admin' }]);
  assert.notEqual(changed?.version, admins?.version);
});

test('update: the lookups of a snapshot replace every table; PDL reads them through the resolver', () => {
  const tables = new LookupTables();
  assert.equal(tables.get('admins'), undefined, 'none by default');
  tables.update([{ id: 'admins', content: [{ name: 'bob', role: 'admin' }] }]);
  const program = compile('lookup admins name AS user OUTPUT role', { lookups: tables });
  assert.deepEqual(program.run({ user: 'bob' }, { timestamp: 0 }), { user: 'bob', role: 'admin' });
  const before = tables.get('admins');
  tables.update([{ id: 'admins', content: [{ name: 'bob', role: 'guest' }] }]);
  assert.notStrictEqual(tables.get('admins'), before);
  assert.deepEqual(program.run({ user: 'bob' }, { timestamp: 0 }), { user: 'bob', role: 'guest' });
  tables.update([]);
  assert.equal(tables.get('admins'), undefined);
});

test('storedLookups: one resolver per store, reading the stored lookups and following their changes', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-lookups-'));
  const store = new SqliteConfigStore(dir);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const lookups = storedLookups(store);
  assert.strictEqual(storedLookups(store), lookups);
  assert.equal(lookups.get('admins'), undefined);
  await store.put('lookups', 'admins', { id: 'admins', content: [{ name: 'bob' }] });
  const first = lookups.get('admins');
  assert.deepEqual(rowsOf(first), [{ name: 'bob' }]);
  assert.strictEqual(lookups.get('admins'), first);
  await store.put('lookups', 'admins', { id: 'admins', content: [{ name: 'eve' }] });
  assert.deepEqual(rowsOf(lookups.get('admins')), [{ name: 'eve' }]);
  await store.delete('lookups', 'admins');
  assert.equal(lookups.get('admins'), undefined);
});
