import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertEntities, indexablePath, maxEntityValue } from '../../src/alerts/alert-entities.ts';

test('alertEntities: strings and booleans as text, numbers by path, objects, arrays and long strings unindexed', () => {
  const found = alertEntities({
    user: 'alice',
    ok: true,
    no: false,
    port: 22,
    none: null,
    src: { ip: '10.0.0.1', geo: { cc: 'DE', deeper: { x: 'y' } } },
    tags: ['a'],
    long: 'x'.repeat(maxEntityValue + 1),
    'bad key': 'v',
    _raw: 'user=alice',
  });
  assert.deepEqual(found, {
    texts: [
      ['user', 'alice'],
      ['ok', '1'],
      ['no', '0'],
      ['src.ip', '10.0.0.1'],
      ['src.geo.cc', 'DE'],
    ],
    numbers: ['port'],
    unindexed: ['src', 'src.geo', 'src.geo.deeper', 'tags', 'long'],
  });
});

test("indexablePath: at most three keys, not Weir's own fields", () => {
  assert.equal(indexablePath('src.geo.cc'), true);
  assert.equal(indexablePath('a.b.c.d'), false);
  assert.equal(indexablePath('_rule.id'), false);
});
