import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { createAlertSchema, ruleOfKey } from '../../src/alerts/alert-schema.ts';

test('schema: rule counts per hour move with replacements and deletes; entity rows go with their alert, by key', () => {
  const db = new DatabaseSync(':memory:');
  createAlertSchema(db);
  const add = db.prepare(`INSERT INTO alerts (id, time, rule, severity, techniques, source, record, status)
    VALUES (?, ?, ?, 2, '[]', '{}', ?, 'new')`);
  add.run('a', 3_600_005, 'r1', '{"user":"u","n":1.50,"ok":true,"deep":{"x":"y"}}');
  add.run('b', 3_600_009, 'r1', '{"user":"u"}');
  add.run('c', -1, null, '{}');
  // the ingest counts new alerts and writes their entity rows (alert-index.ts)
  db.exec(`INSERT INTO rule_counts VALUES (1, '=r1', 2), (-1, '', 1)`);
  const rid = (id: string) => (db.prepare('SELECT rowid AS r FROM alerts WHERE id = ?').get(id) as { r: number }).r;
  const entity = db.prepare('INSERT INTO entities VALUES (?, ?, ?, ?)');
  for (const [field, value] of [
    ['user', 'u'],
    ['n', '1.5'],
    ['ok', '1'],
    ['deep.x', 'y'],
  ])
    entity.run(field!, value!, 3_600_005, rid('a'));
  entity.run('user', 'u', 3_600_009, rid('b'));
  db.exec(`INSERT INTO entity_counts VALUES ('user', 1, 'u', 2), ('n', 1, '1.5', 1), ('ok', 1, '1', 1),
    ('deep.x', 1, 'y', 1)`);
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
