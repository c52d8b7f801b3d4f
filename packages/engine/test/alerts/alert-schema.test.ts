import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { createAlertSchema, ruleOfKey } from '../../src/alerts/alert-schema.ts';

test('schema: rule counts per hour follow inserts, replacements and deletes; entity rows go with their alert', () => {
  const db = new DatabaseSync(':memory:');
  createAlertSchema(db);
  const add = db.prepare(`INSERT INTO alerts (id, time, rule, severity, techniques, source, record, status)
    VALUES (?, ?, ?, 2, '[]', '{}', '{}', 'new')`);
  add.run('a', 3_600_000 + 5, 'r1');
  add.run('b', 3_600_000 + 9, 'r1');
  add.run('c', -1, null);
  const rid = (db.prepare("SELECT rowid AS r FROM alerts WHERE id = 'a'").get() as { r: number }).r;
  db.prepare('INSERT INTO entities VALUES (?, ?, ?, ?)').run('user', 'u', 3_600_005, rid);
  db.prepare("INSERT INTO entity_counts VALUES ('user', 1, 'u', 1)").run();
  db.prepare("UPDATE alerts SET time = 7_200_000, record = '{\"x\":1}' WHERE id = 'b'").run();
  db.prepare("DELETE FROM alerts WHERE id = 'a'").run();
  assert.deepEqual(
    db
      .prepare('SELECT bucket, rule, n FROM rule_counts ORDER BY bucket')
      .all()
      .map((r) => ({ ...r })),
    [
      { bucket: -1, rule: '', n: 1 },
      { bucket: 2, rule: '=r1', n: 1 },
    ],
  );
  assert.deepEqual(db.prepare('SELECT * FROM entities').all(), []);
  assert.deepEqual(db.prepare('SELECT * FROM entity_counts').all(), []);
  assert.equal(ruleOfKey(''), null);
  assert.equal(ruleOfKey('=r1'), 'r1');
});
