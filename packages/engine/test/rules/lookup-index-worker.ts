/**
 * A worker thread for lookup-index-server.test.ts: looks values up in the shared lookups it is
 * given through a SharedLookup whose column indexes come from the main thread over `channel`,
 * and answers what it found (and, on `write`, marks the index memory it got).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lookupIndexClient, type LookupIndexChannel } from '../../src/rules/lookup-index-server.ts';
import { SharedLookup, type SharedLookupData } from '../../src/rules/shared-lookup.ts';

const { channel, lookups } = workerData as { channel: LookupIndexChannel; lookups: SharedLookupData[] };
const ask = lookupIndexClient(channel, 5000);
const seen = new Map<string, SharedArrayBuffer | undefined>();
const tables = lookups.map(
  (data) =>
    new SharedLookup(data, 1, (d, column, path) => {
      const memory = ask(d, column, path);
      seen.set(`${d.id}/${column}`, memory);
      return memory;
    }),
);

parentPort!.on('message', (m: { table: number; column: string; key: string } | { memory: string }) => {
  if ('memory' in m) {
    parentPort!.postMessage(seen.get(m.memory) ?? null);
    return;
  }
  parentPort!.postMessage(tables[m.table]!.first(m.column, [m.column], m.key) ?? null);
});
