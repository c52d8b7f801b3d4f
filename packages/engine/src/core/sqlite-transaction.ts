import type { DatabaseSync } from 'node:sqlite';

/**
 * Runs `work` in one write transaction of `db` (BEGIN IMMEDIATE: the write lock taken at once, so
 * two writers queue instead of failing halfway): committed when it returns, rolled back when it
 * throws. The config store and the alert index write this way.
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}
