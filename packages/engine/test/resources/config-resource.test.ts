import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { isDomainError } from '../../src/core/errors.ts';
import { ConfigResource } from '../../src/resources/config-resource.ts';
import { resourceKinds } from '../../src/resources/kinds.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-resource-'));
const store = new SqliteConfigStore(dir);
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const pipelines = new ConfigResource(
  resourceKinds.find((k) => k.path === 'pipelines')!,
  store,
);

test('concurrent creates of one id: exactly one succeeds', async () => {
  const results = await Promise.allSettled([1, 2, 3].map((n) => pipelines.create({ id: 5, name: `p${n}`, tasks: [] })));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  for (const r of results)
    if (r.status === 'rejected') assert.ok(isDomainError(r.reason) && r.reason.code === 'RESOURCE_EXISTS');
});

test('bulk may swap names between records; list is ordered by integer id', async () => {
  await pipelines.bulk([
    { id: 10, name: 'a', tasks: [] },
    { id: 2, name: 'b', tasks: [] },
  ]);
  await pipelines.bulk([
    { id: 10, name: 'b', tasks: [1] },
    { id: 2, name: 'a', tasks: [2] },
  ]);
  assert.deepEqual(
    pipelines.list().map((p) => [p.id, p.name]),
    [
      [2, 'a'],
      [5, pipelines.get('5').name],
      [10, 'b'],
    ],
  );
});

test('path ids: integers only, leading zeros allowed', () => {
  assert.equal(pipelines.parseId('007'), '7');
  assert.throws(
    () => pipelines.parseId('1.5'),
    (e) => isDomainError(e) && e.code === 'RESOURCE_ID_INVALID',
  );
  assert.throws(
    () => pipelines.parseId('99999999999999999'),
    (e) => isDomainError(e) && e.code === 'RESOURCE_ID_INVALID',
  );
});
