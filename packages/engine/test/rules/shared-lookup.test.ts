import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { compile, type LookupResolver } from '@weir/pdl';
import { SharedLookup, shareLookup } from '../../src/rules/shared-lookup.ts';

/** Rows with repeated, missing, null, numeric-text, nested, unicode and array cells. */
function rows(count: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = { n: i, name: `név-${i % 97}`, owner: `o${i}` };
    if (i % 5 === 0) row['ip'] = null;
    else if (i % 7 !== 0) row['ip'] = `10.0.${i % 13}.${i % 251}`;
    if (i % 3 === 0) row['port'] = i % 40;
    else if (i % 3 === 1) row['port'] = String(i % 40);
    row['host'] = { name: `h${i % 50}` };
    if (i % 11 === 0) row['host.name'] = `dotted-${i % 4}`;
    out.push(row);
  }
  return out;
}

/** The same PDL over a rows table and over its shared copy: the same events out. */
function same(pdl: string, table: Record<string, unknown>[], events: Record<string, unknown>[]) {
  const plain: LookupResolver = { get: (id) => (id === 'assets' ? { version: 1, rows: table } : undefined) };
  const sharedTable = new SharedLookup(shareLookup('assets', table), 1);
  const shared: LookupResolver = { get: (id) => (id === 'assets' ? sharedTable : undefined) };
  const a = compile(pdl, { lookups: plain });
  const b = compile(pdl, { lookups: shared });
  for (const event of events)
    assert.deepEqual(
      b.run(structuredClone(event)),
      a.run(structuredClone(event)),
      `${pdl} on ${JSON.stringify(event)}`,
    );
}

test('a shared lookup finds the rows the rows table finds: first row of a value, null never, numbers and numeric text alike', () => {
  const table = rows(3000);
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < 400; i++)
    events.push({
      ip: i % 9 === 0 ? null : `10.0.${i % 13}.${(i * 7) % 251}`,
      port: i % 2 === 0 ? i % 45 : String(i % 45),
      name: `név-${i % 120}`,
      host: i % 4 === 0 ? [`h${i % 60}`, `h${(i + 1) % 60}`] : `h${i % 60}`,
      dotted: `dotted-${i % 6}`,
    });
  same('lookup assets ip OUTPUT owner, n', table, events);
  same('lookup assets port OUTPUT owner AS who', table, events);
  same('lookup assets name OUTPUT n', table, events);
  same('lookup assets host.name AS host OUTPUT owner', table, events);
  same('lookup assets host.name AS dotted OUTPUT owner', table, events);
  same('lookup assets missing AS ip OUTPUT owner', table, events);
});

test('an empty table and a table of one row', () => {
  same('lookup assets ip OUTPUT owner', [], [{ ip: '10.0.0.1' }]);
  same('lookup assets ip OUTPUT owner', [{ ip: '10.0.0.1', owner: 'a' }], [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }]);
});

test('the rows are shared with a worker thread, not copied: a worker reads the same bytes', async () => {
  const data = shareLookup('assets', [{ ip: '10.0.0.1', owner: 'alice' }]);
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const bytes = Buffer.from(workerData.bytes);
     parentPort.postMessage(bytes.toString('utf8'));
     bytes.write('{"ip":"10.0.0.1","owner":"BOBBY"}');
     parentPort.postMessage('written');`,
    { eval: true, workerData: data },
  );
  const messages: string[] = [];
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: string) => {
      messages.push(m);
      if (m === 'written') resolve();
    });
    worker.on('error', reject);
  });
  await worker.terminate();
  assert.equal(messages[0], '{"ip":"10.0.0.1","owner":"alice"}');
  // the worker's write is seen here: one copy of the bytes for both threads
  const after = new SharedLookup(data, 2);
  assert.deepEqual(after.first('ip', ['ip'], 's:10.0.0.1'), { ip: '10.0.0.1', owner: 'BOBBY' });
});
