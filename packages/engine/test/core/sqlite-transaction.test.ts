import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { inTransaction } from '../../src/core/sqlite-transaction.ts';

test('work that returns is committed with its result; work that throws is rolled back and rethrown', () => {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE t (v INTEGER)');
  const rows = () => (db.prepare('SELECT v FROM t ORDER BY v').all() as { v: number }[]).map((r) => r.v);
  assert.equal(
    inTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run().changes),
    1,
  );
  assert.throws(
    () =>
      inTransaction(db, () => {
        db.prepare('INSERT INTO t VALUES (2)').run();
        throw new Error('halfway');
      }),
    /halfway/,
  );
  assert.deepEqual(rows(), [1]);
  assert.equal(db.isTransaction, false);
});
