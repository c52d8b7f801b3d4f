import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

const entry = (id: string, action: 'create' | 'update' | 'delete', record?: unknown, note?: string) => ({
  id,
  time: 1000,
  user: 'ada',
  action,
  ...(note ? { note } : {}),
  ...(record ? { record } : {}),
});

test('sqlite store: versions numbered per record, written with the change, kept after a delete and a reopen', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'weir-sqlite-'));
  try {
    const store = new SqliteConfigStore(home);
    await store.put('rules', 'r1', { id: 'r1', v: 1 }, { versions: [entry('r1', 'create', { id: 'r1', v: 1 }, 'n')] });
    await store.putMany(
      'rules',
      [
        ['r1', { id: 'r1', v: 2 }],
        ['r2', { id: 'r2' }],
      ],
      { versions: [entry('r1', 'update', { id: 'r1', v: 2 }), entry('r2', 'create', { id: 'r2' })] },
    );
    assert.equal(await store.delete('rules', 'r1', { versions: [entry('r1', 'delete')] }), true);
    assert.equal(await store.delete('rules', 'r1', { versions: [entry('r1', 'delete')] }), false);
    // The same id in another collection has its own numbers.
    await store.put('tasks', 'r1', { id: 1 }, { versions: [entry('r1', 'create', { id: 1 })] });
    await store.close();

    const reopened = new SqliteConfigStore(home);
    try {
      assert.deepEqual(reopened.versions('rules', 'r1'), [
        { ...entry('r1', 'create', { id: 'r1', v: 1 }, 'n'), version: 1 },
        { ...entry('r1', 'update', { id: 'r1', v: 2 }), version: 2 },
        { ...entry('r1', 'delete'), version: 3 },
      ]);
      assert.deepEqual(reopened.versions('rules', 'r2'), [{ ...entry('r2', 'create', { id: 'r2' }), version: 1 }]);
      assert.deepEqual(reopened.versions('tasks', 'r1'), [{ ...entry('r1', 'create', { id: 1 }), version: 1 }]);
      assert.deepEqual(reopened.versions('rules', 'none'), []);
      assert.equal(reopened.get('rules', 'r1'), undefined);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('sqlite store: listJson gives every record of a collection as its stored JSON bytes, in list order', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'weir-sqlite-'));
  const store = new SqliteConfigStore(home);
  try {
    const lookup = { id: 'assets', content: [{ ip: '10.0.0.1', owner: 'bö 日本' }] };
    await store.put('lookups', 'assets', lookup);
    await store.put('lookups', 'other', { id: 'other', content: [] });
    const json = store.listJson('lookups');
    assert.deepEqual(
      json.map((bytes) => Buffer.from(bytes).toString('utf8')),
      store.list('lookups').map((record) => JSON.stringify(record)),
    );
    assert.deepEqual(JSON.parse(Buffer.from(json[0]!).toString('utf8')), lookup);
    assert.deepEqual(store.listJson('rules'), []);
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
});
