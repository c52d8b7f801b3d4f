import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { likeText, wordMatch } from '../../src/alerts/alert-text.ts';

test('wordMatch: the first word only after a separator, the last as a prefix unless a separator ends the text', () => {
  assert.equal(wordMatch('host-17"'), '"17"');
  assert.equal(wordMatch(' failed login'), '"failed" AND "login" *');
  assert.equal(wordMatch('=alice '), '"alice"');
  assert.equal(wordMatch('alice'), undefined);
  assert.equal(wordMatch('--'), undefined);
  assert.equal(wordMatch(' müller'), undefined);
});

test('likeText: LIKE finds exactly the records instr(lower()) finds (ASCII case folded; %, _ and \\ literal)', () => {
  const db = new DatabaseSync(':memory:');
  const records = [
    '{"u":"Alice"}',
    '{"p":"50%_off"}',
    '{"p":"50xyoff"}',
    '{"w":"C:\\\\dir"}',
    '{"n":"Müller"}',
    '{"n":"MÜLLER"}',
  ];
  const texts = ['alice', 'ALICE"', '50%_', '%', '_', '\\', 'c:\\\\d', 'müller', 'MÜLLER', 'ü', 'x'];
  const like = db.prepare(`SELECT ? LIKE ? ESCAPE '\\' AS hit`);
  const instr = db.prepare('SELECT instr(lower(?), lower(?)) > 0 AS hit');
  let hits = 0;
  for (const r of records)
    for (const t of texts) {
      const expected = (instr.get(r, t) as { hit: number }).hit;
      hits += expected;
      assert.equal((like.get(r, likeText(t)) as { hit: number }).hit, expected, `${r} ${t}`);
    }
  assert.equal(hits, 11);
});
