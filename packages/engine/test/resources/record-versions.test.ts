import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runAs } from '../../src/audit/audit-context.ts';
import { isDomainError } from '../../src/core/errors.ts';
import { ConfigResource } from '../../src/resources/config-resource.ts';
import { parseVersion, RecordVersions, versionEntry } from '../../src/resources/record-versions.ts';
import { pipelineKind } from '../../src/resources/pipeline.ts';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';

function refusal(code: string, args: unknown[]) {
  return (err: unknown) => isDomainError(err) && err.code === code && assert.deepEqual(err.args, args) === undefined;
}

test('a version number is a whole number from 1; anything else names the parameter', () => {
  assert.equal(parseVersion('version', '1'), 1);
  assert.equal(parseVersion('to', '999999999999999'), 999999999999999);
  for (const raw of ['0', '-1', '01', '1.5', 'two', '', '1e3', '9999999999999999'])
    assert.throws(() => parseVersion('from', raw), refusal('VERSION_INVALID', ['from', raw]), raw);
});

test("a version's author is the request's user (null outside requests); note and rollback only when given", () => {
  assert.deepEqual(versionEntry('7', 'delete', undefined, {}, 5), { id: '7', time: 5, user: null, action: 'delete' });
  const made = runAs({ actor: { user: 'ada', address: '::1' } }, () =>
    versionEntry('7', 'update', { id: 7 }, { note: 'why', rollbackOf: 2 }, 5),
  );
  assert.deepEqual(made, {
    id: '7',
    time: 5,
    user: 'ada',
    action: 'update',
    note: 'why',
    rollbackOf: 2,
    record: { id: 7 },
  });
});

test('writes outside requests are versioned too; list, read, diff; a deleted record keeps its versions', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'weir-versions-'));
  const store = new SqliteConfigStore(home);
  try {
    const pipelines = new ConfigResource(pipelineKind, store);
    const versions = new RecordVersions(pipelineKind, store);
    const p = { id: 3, name: 'p', description: '', tasks: [] };
    await pipelines.create(p, { note: 'new' });
    await pipelines.update('3', { ...p, tasks: [1] });
    await pipelines.delete('3');
    assert.deepEqual(
      versions.list('3').map(({ time, ...v }) => (assert.ok(time.endsWith('Z')), v)),
      [
        { version: 1, user: null, action: 'create', note: 'new' },
        { version: 2, user: null, action: 'update' },
        { version: 3, user: null, action: 'delete' },
      ],
    );
    assert.deepEqual(versions.get('3', 2).record, { ...p, tasks: [1] });
    assert.deepEqual(versions.diff('3', 1, 2), { from: 1, to: 2, changes: [{ path: 'tasks[0]', after: 1 }] });
    assert.throws(() => versions.find('3', 4), refusal('VERSION_MISSING', [pipelineKind.names, '3', 4, 3]));
    assert.throws(() => versions.list('4'), refusal('VERSION_MISSING', [pipelineKind.names, '4', 1, 0]));
    await assert.rejects(pipelines.rollback('3', 3), refusal('VERSION_IS_DELETION', [pipelineKind.names, '3', 3]));
    assert.deepEqual(await pipelines.rollback('3', 1), p);
    assert.equal(versions.find('3', 4).rollbackOf, 1);
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('a record stored before versions were kept lists no versions rather than 404', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'weir-versions-'));
  const store = new SqliteConfigStore(home);
  try {
    await store.put('pipelines', '5', { id: 5, name: 'old', tasks: [] });
    assert.deepEqual(new RecordVersions(pipelineKind, store).list('5'), []);
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
});
