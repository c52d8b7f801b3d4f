import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { LookupIndexServer } from '../../src/rules/lookup-index-server.ts';
import { shareLookup } from '../../src/rules/shared-lookup.ts';

const rows = Array.from({ length: 5000 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, owner: `o${i % 10}` }));

/** A worker thread (lookup-index-worker.ts) with its channel to `server` and the lookups it was given. */
function worker(server: LookupIndexServer, lookups: ReturnType<typeof shareLookup>[]) {
  const channel = server.channel();
  const thread = new Worker(new URL('./lookup-index-worker.ts', import.meta.url), {
    workerData: { channel, lookups },
    transferList: [channel.port],
  });
  const ask = (message: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
      thread.postMessage(message);
    });
  return { thread, ask };
}

test('two worker threads look up through one index built on the main thread: the same shared memory, the same rows as a rows table', async () => {
  const assets = shareLookup('assets', rows);
  const server = new LookupIndexServer();
  server.share([assets]);
  const a = worker(server, [assets]);
  const b = worker(server, [assets]);
  try {
    assert.deepEqual(await a.ask({ table: 0, column: 'ip', key: 's:10.0.3.7' }), rows[3 * 256 + 7]);
    assert.deepEqual(await b.ask({ table: 0, column: 'ip', key: 's:10.0.19.135' }), rows[19 * 256 + 135]);
    assert.equal(await b.ask({ table: 0, column: 'ip', key: 's:10.9.9.9' }), null);
    // the first row of a value wins, as in a rows table
    assert.deepEqual(await a.ask({ table: 0, column: 'owner', key: 's:o4' }), rows[4]);
    const memoryA = (await a.ask({ memory: 'assets/ip' })) as SharedArrayBuffer;
    const memoryB = (await b.ask({ memory: 'assets/ip' })) as SharedArrayBuffer;
    assert.ok(memoryA instanceof SharedArrayBuffer, 'an index came from the main thread');
    // one copy: what the main thread writes into it, both workers read
    new Int32Array(memoryA)[0] = 123_456;
    assert.equal(new Int32Array(memoryB)[0], 123_456);
  } finally {
    server.close();
    await Promise.all([a.thread.terminate(), b.thread.terminate()]);
  }
});

test('a table the main thread does not hold (another snapshot) is indexed by the worker itself, with the same rows', async () => {
  const old = shareLookup('assets', rows);
  const server = new LookupIndexServer();
  server.share([shareLookup('assets', rows.slice(0, 10))]);
  const a = worker(server, [old]);
  try {
    assert.deepEqual(await a.ask({ table: 0, column: 'ip', key: 's:10.0.19.135' }), rows[19 * 256 + 135]);
    assert.equal(await a.ask({ memory: 'assets/ip' }), null, 'no index from the main thread');
  } finally {
    server.close();
    await a.thread.terminate();
  }
});

test('a row that does not parse fails in the worker that looks it up, not on the main thread, which answers the next asker', async () => {
  const broken = shareLookup('broken', [{ ip: 'a' }, { ip: 'b' }]);
  Buffer.from(broken.bytes).write('#', 0); // the first row's JSON no longer parses
  const assets = shareLookup('assets', rows);
  const server = new LookupIndexServer();
  server.share([broken, assets]);
  const a = worker(server, [broken, assets]);
  try {
    await assert.rejects(a.ask({ table: 0, column: 'ip', key: 's:b' }), /JSON/);
    const b = worker(server, [broken, assets]);
    try {
      assert.deepEqual(await b.ask({ table: 1, column: 'ip', key: 's:10.0.0.9' }), rows[9]);
    } finally {
      await b.thread.terminate();
    }
  } finally {
    server.close();
    await a.thread.terminate();
  }
});
