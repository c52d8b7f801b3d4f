import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Query } from '../src/index.ts';
import { parse } from '../src/index.ts';
import { constantConditions } from '../src/lintConditions.ts';

const query = (text: string): Query => {
  const stage = parse(text).stages[0];
  assert.equal(stage?.kind, 'QueryStage');
  return (stage as { query: Query }).query;
};
const found = (text: string) => constantConditions(query(text)).map((c) => [c.value, c.certain]);

test('constantConditions: negations are certain, value contradictions hold unless arrays', () => {
  assert.deepEqual(found('a = 1 AND NOT a = 1'), [[false, true]]);
  assert.deepEqual(found('a = 1 OR a != 1'), [[true, true]]);
  assert.deepEqual(found('a = "x" AND a = "y"'), [[false, false]]);
  assert.deepEqual(found('a >= 3 AND a = 2'), [[false, false]]);
  assert.deepEqual(found('a >= 3 AND a = 3 AND a <= 3'), []);
  assert.deepEqual(found('a = 1 OR a = 2'), []);
  assert.deepEqual(found('NOT (a = 1 AND a = 2) OR b = 1'), [[false, false]]);
});
