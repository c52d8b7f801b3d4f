import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attackTable } from '@weir/contract';
import { judgeTag } from '../src/lintTags.ts';

test('judgeTag: kinds of tags', () => {
  const kind = (tag: string) => judgeTag(tag, attackTable, 'v18.1').kind;
  assert.deepEqual(
    [
      'attack.t1003.001',
      'attack.s0002',
      'attack.initial-access',
      'car.2016-04-005',
      'attack.t9999',
      'attack.t1086',
      't1003',
      'attack.x1',
    ].map(kind),
    ['ok', 'ok', 'ok', 'ok', 'unknown', 'retired', 'invalid', 'invalid'],
  );
});
