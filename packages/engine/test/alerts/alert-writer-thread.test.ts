import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { AlertIndex } from '../../src/alerts/alert-index.ts';
import type { FromWriter, ToWriter } from '../../src/alerts/alert-writer.ts';
import { serveWriter } from '../../src/alerts/alert-writer-thread.ts';
import { packRecords } from '../../src/alerts/record-pack.ts';
import { alertId, alertRecords, closedBenign } from './alert-fixtures.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** serveWriter on one end of a channel (in this thread), and a function that sends a request and waits for its answer. */
function writer(location: string) {
  const { port1, port2 } = new MessageChannel();
  serveWriter(port1, { location, retention: { days: 0, maxCount: 0 } });
  let id = 0;
  const answers = new Map<number, (m: FromWriter) => void>();
  port2.on('message', (m: FromWriter) => answers.get(m.id)?.(m));
  const send = (m: ToWriter) =>
    new Promise<FromWriter>((resolve) => {
      const sent = { ...m, id: ++id };
      answers.set(sent.id, resolve);
      port2.postMessage(sent, sent.type === 'ingest' ? [sent.records] : []);
    });
  return { send, close: () => port2.close() };
}

const ingest = (run: number, from: number, n: number): ToWriter => ({
  type: 'ingest',
  id: 0,
  topic: 'alerts',
  run,
  records: packRecords(
    alertRecords(
      Array.from({ length: n }, (_, i) => ({ n: from + i })),
      from,
    ),
  ),
  next: [[0, from + n]],
});

test('serveWriter: ingests in order with the positions; after a failed batch the rest of its run is refused, a new run applies', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-writer-thread-'));
  dirs.push(dir);
  const reader = new AlertIndex(dir, { days: 0, maxCount: 0 });
  const w = writer(dir);
  assert.deepEqual(await w.send(ingest(1, 0, 3)), { type: 'done', id: 1, result: { stored: 3, skipped: 0 } });
  assert.equal(reader.count(), 3);

  // a SQLite failure in the batch's transaction (a trigger refuses the positions' write): nothing of it stored
  const other = new DatabaseSync(path.join(dir, 'alerts.db'));
  other.exec(`CREATE TRIGGER fail BEFORE UPDATE ON positions BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
  const [failed, refused] = await Promise.all([w.send(ingest(1, 3, 2)), w.send(ingest(1, 5, 2))]);
  other.exec('DROP TRIGGER fail');
  other.close();
  assert.deepEqual(failed, { type: 'failed', id: 2, message: 'disk full' });
  assert.deepEqual(refused, {
    type: 'failed',
    id: 3,
    message: 'not applied: an earlier batch of alerts failed; it is read again from the stored positions',
  });
  assert.equal(reader.count(), 3);
  assert.deepEqual([...reader.positions('alerts')], [[0, 3]]);

  // the follower's next run, from the stored positions
  assert.deepEqual(await w.send(ingest(2, 3, 4)), { type: 'done', id: 4, result: { stored: 4, skipped: 0 } });
  assert.equal(reader.count(), 7);
  assert.deepEqual([...reader.positions('alerts')], [[0, 7]]);
  assert.deepEqual(await w.send({ type: 'prune', id: 0 }), { type: 'done', id: 5, result: 0 });
  assert.deepEqual(await w.send({ type: 'close', id: 0 }), { type: 'done', id: 6, result: undefined });
  w.close();
  reader.close();
});

test('serveWriter: a triage request waiting goes before the ingest batches waiting; the rest in order', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-writer-thread-'));
  dirs.push(dir);
  const reader = new AlertIndex(dir, { days: 0, maxCount: 0 });
  const w = writer(dir);
  const answered: number[] = [];
  const sent = [
    w.send(ingest(1, 0, 2)),
    w.send(ingest(1, 2, 2)),
    w.send({ type: 'triage', id: 0, entries: [{ id: alertId(1), triage: closedBenign, offset: 0 }] }),
    w.send({ type: 'prune', id: 0 }),
  ].map((p) => p.then((m) => answered.push(m.id)));
  await Promise.all(sent);
  assert.deepEqual(answered, [3, 1, 2, 4]);
  assert.deepEqual([reader.count(), reader.get(alertId(1))!.status], [4, 'closed']);
  await w.send({ type: 'close', id: 0 });
  w.close();
  reader.close();
});
