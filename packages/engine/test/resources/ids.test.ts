import assert from 'node:assert/strict';
import { test } from 'node:test';
import { integerId, integerIdKey, isStringId, stringId } from '@weir/contract';
import { compileValidator } from '../../src/validation/json-schema.ts';

test('integer ids: a path id and a body id follow the same rule', () => {
  const validate = compileValidator(integerId);
  for (const [raw, key] of [
    ['0', '0'],
    ['007', '7'],
    [String(Number.MAX_SAFE_INTEGER), String(Number.MAX_SAFE_INTEGER)],
    ['-1', undefined],
    ['1.5', undefined],
    ['9007199254740992', undefined],
    ['abc', undefined],
    ['', undefined],
  ] as const) {
    assert.equal(integerIdKey(raw), key, raw);
    if (key !== undefined) assert.deepEqual(validate(Number(raw)), [], raw);
  }
  assert.notDeepEqual(validate(Number.MAX_SAFE_INTEGER + 1), []);
});

test('string ids: a path id and a body id follow the same rule', () => {
  const validate = compileValidator(stringId);
  for (const raw of [
    'a',
    'sigma-123',
    'x'.repeat(256),
    '',
    'a b',
    'a/b',
    'a?b',
    'a#b',
    'a%b',
    'a\\b',
    'x'.repeat(257),
  ]) {
    assert.equal(isStringId(raw), validate(raw).length === 0, JSON.stringify(raw));
  }
  assert.ok(isStringId('x'.repeat(256)) && !isStringId('x'.repeat(257)) && !isStringId('a b'));
});
