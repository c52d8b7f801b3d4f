import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SqliteConfigStore } from '../../src/store/sqlite-store.ts';
import { workerSnapshot } from '../../src/stream/config-snapshot.ts';

test('workerSnapshot gives each stored lookup in shared memory and frees the stored JSON it read once copied', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'weir-config-snapshot-'));
  try {
    const store = new SqliteConfigStore(dir);
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, owner: `user-${i}` }));
    await store.put('lookups', 'assets', { id: 'assets', content: rows });
    const jsonBytes = Buffer.byteLength(JSON.stringify({ id: 'assets', content: rows })); // ~9 MB, as stored

    // a full collection first: what was garbage before is not counted, and none runs during the call
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const before = process.memoryUsage().arrayBuffers;
    const snapshot = workerSnapshot(store);
    const grown = process.memoryUsage().arrayBuffers - before;

    assert.equal(snapshot.lookups, undefined);
    const [data] = snapshot.sharedLookups ?? [];
    assert.equal(data?.id, 'assets');
    assert.equal(data.count, rows.length);
    const bytes = Buffer.from(data.bytes);
    const starts = new Float64Array(data.starts);
    const row = (i: number) => JSON.parse(bytes.toString('utf8', starts[i]!, starts[i + 1]!)) as unknown;
    assert.deepEqual(row(0), rows[0]);
    assert.deepEqual(row(rows.length - 1), rows.at(-1));
    // what stays is the shared copy (the rows' bytes and where each starts), not the stored JSON beside it
    const shared = data.bytes.byteLength + data.starts.byteLength;
    assert.ok(
      grown < shared + jsonBytes / 2,
      `array buffers grew ${grown} bytes: shared ${shared}, stored JSON ${jsonBytes}`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
