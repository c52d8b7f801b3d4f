import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { gcFlag, workerResourceLimits, youngGenerationMb } from '../../src/stream/worker-limits.ts';

test('a worker thread: the old generation at weir.stream.worker-heap-mb, the young generation 1/16 of it, between 8 and 64 MB', () => {
  assert.deepEqual(workerResourceLimits(1024), { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 });
  assert.deepEqual(workerResourceLimits(100), { maxOldGenerationSizeMb: 100, maxYoungGenerationSizeMb: 8 });
  assert.deepEqual(workerResourceLimits(65536), { maxOldGenerationSizeMb: 65536, maxYoungGenerationSizeMb: 64 });
  assert.equal(youngGenerationMb(600), 38);
  assert.equal(workerResourceLimits(0), undefined, "0: V8's defaults");
});

test("the worker threads' GC flag: Buffers counted in the heap's limit, unless the command line says either way", () => {
  assert.equal(gcFlag([]), '--external-memory-accounted-in-global-limit');
  assert.equal(gcFlag(['--disable-warning=ExperimentalWarning']), '--external-memory-accounted-in-global-limit');
  assert.equal(gcFlag(['--no-external-memory-accounted-in-global-limit']), undefined);
  assert.equal(gcFlag(['--external_memory_accounted_in_global_limit']), undefined);
});

/** Full collections (`--trace-gc`'s Mark-Compact lines) of a worker thread making 600 MB of 1.5-KB Buffers over a small heap. */
function fullCollections(setFlag: boolean, execArgv: readonly string[] = []): number {
  const limits = new URL('../../src/stream/worker-limits.ts', import.meta.url).href;
  const churn = `const ring = new Array(4000); const keep = [];
    for (let i = 0; i < 300000; i++) keep.push({ i, s: 'x' + i });
    for (let i = 0; i < 400000; i++) ring[i % 4000] = Buffer.allocUnsafe(1500);`;
  const main = `import { Worker } from 'node:worker_threads';
    import { setWorkerGcFlag } from '${limits}';
    ${setFlag ? 'setWorkerGcFlag();' : ''}
    new Worker(${JSON.stringify(churn)}, { eval: true });`;
  const run = spawnSync(process.execPath, [...execArgv, '--trace-gc', '--input-type=module', '-e', main], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter((l) => l.includes('Mark-Compact')).length;
}

test('with the flag set before it starts, a worker thread making Buffers collects its whole heap far less often', () => {
  const without = fullCollections(false);
  const withFlag = fullCollections(true);
  assert.ok(without >= 6, `without the flag: ${without} full collections`);
  assert.ok(withFlag * 2 <= without, `with the flag: ${withFlag} full collections, without: ${without}`);
  // the command line's choice stays
  assert.ok(fullCollections(true, ['--no-external-memory-accounted-in-global-limit']) >= 6);
});
