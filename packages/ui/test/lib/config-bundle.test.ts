import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readBundle } from '../../src/lib/config-bundle.ts';

test('an exported configuration reads back; a missing list is empty', () => {
  const b = readBundle(
    JSON.stringify({ weirConfiguration: 1, exportedAt: 'now', rules: [{ id: 'r', name: 'r', pdl: 'a=1' }] }),
  );
  assert.deepEqual(
    b.rules.map((r) => r.id),
    ['r'],
  );
  assert.deepEqual([b.lookups, b.tasks, b.pipelines, b.topologies], [[], [], [], []]);
});

test('a file that is not an export is refused with the reason', () => {
  assert.throws(() => readBundle('nope'), /the file is not JSON/);
  assert.throws(() => readBundle('[]'), /not a Weir configuration export/);
  assert.throws(() => readBundle('{"weirConfiguration":1,"tasks":{}}'), /"tasks" must be an array/);
});
