import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { StoredSilence } from '@weir/contract';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';
import { storedSilences } from '../../src/silences/stored-silences.ts';

const silence = (id: string): StoredSilence => ({
  id,
  matchers: [{ field: 'user', op: '=~', value: 'svc-.*' }],
  startsAt: '2026-11-26T08:00:00.000Z',
  endsAt: '2026-11-26T10:00:00.000Z',
  comment: 'c',
  createdBy: 'ann',
  createdAt: '2026-11-26T08:00:00.000Z',
});

test('the same silence objects until a silence changes; then the store is read again; one reader per store', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-stored-silences-'));
  const store = new SqliteConfigStore(dir);
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.put('silences', 's1', silence('s1'));
  const read = storedSilences(store);
  assert.equal(storedSilences(store), read);
  const first = read();
  assert.deepEqual(
    first.map((s) => s.id),
    ['s1'],
  );
  // the SQLite store parses new objects on every list; the reader hands out the same ones
  assert.notEqual(store.list('silences')[0], first[0]);
  assert.equal(read(), first);
  // another collection's write keeps them
  await store.put('rules', 'r1', { id: 'r1', name: 'R', pdl: 'a=1', enabled: true });
  assert.equal(read(), first);
  // a silence written: read again
  await store.put('silences', 's2', silence('s2'));
  assert.deepEqual(
    read().map((s) => s.id),
    ['s1', 's2'],
  );
});
