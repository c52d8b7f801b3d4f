import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AlertIndex } from '../../src/alerts/alert-index.ts';
import { AlertWriter } from '../../src/alerts/alert-writer.ts';
import { alertId, alertRecords, closedBenign } from './alert-fixtures.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('AlertWriter: a thread of its own writes the index; the main connection reads each write once acknowledged; close drains', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-alert-writer-'));
  dirs.push(dir);
  const reader = new AlertIndex(dir, { days: 0, maxCount: 2 });
  const writer = new AlertWriter({ location: dir, retention: { days: 0, maxCount: 2 } });
  await writer.open();
  const records = alertRecords([{ n: 1 }, { n: 2 }, { n: 3, user: 'zed' }]);
  assert.deepEqual(await writer.ingest('alerts', records, new Map([[0, 3]]), 1), { stored: 3, skipped: 0 });
  assert.equal(reader.count(), 3);
  assert.deepEqual([...reader.positions('alerts')], [[0, 3]]);

  await writer.applyTriage([{ id: alertId(2), triage: closedBenign, offset: 0 }]);
  assert.equal(reader.get(alertId(2))!.status, 'closed');
  await writer.applyTriage([{ id: alertId(1), triage: closedBenign, offset: 1 }], {
    topic: 'triage',
    run: 1,
    next: new Map([[0, 2]]),
  });
  assert.deepEqual([reader.triageOf(alertId(1)).status, [...reader.positions('triage')]], ['closed', [[0, 2]]]);
  assert.equal(await writer.prune(), 1);
  assert.equal(reader.count(), 2);

  // requests sent before close are written before the thread ends
  const more = writer.ingest('alerts', alertRecords([{ n: 4 }], 3), new Map([[0, 4]]), 1);
  await writer.close();
  assert.deepEqual(await more, { stored: 1, skipped: 0 });
  assert.deepEqual([...reader.positions('alerts')], [[0, 4]]);
  await assert.rejects(writer.prune(), { message: 'the alert store is closed' });
  reader.close();
});
