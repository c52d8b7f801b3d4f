import assert from 'node:assert/strict';
import { test } from 'node:test';
import { integerId, integerIdKey, integerIdRule, isStringId, stringId, stringIdRule } from '../src/ids.ts';
import { violationsOf } from './helpers/ajv.ts';

test('the id rules are worded as docs/api.md states them', () => {
  assert.equal(integerIdRule, 'an integer from 0 to 9007199254740991');
  assert.equal(stringIdRule, 'a non-empty text of at most 256 characters without whitespace, /, ?, #, % or \\');
});

test('integer ids: a path id and a body id follow the same rule, from 0 to 2^53−1', () => {
  const validate = violationsOf(integerId);
  for (const [raw, key] of [
    ['0', '0'],
    ['007', '7'],
    ['42', '42'],
    [String(Number.MAX_SAFE_INTEGER), String(Number.MAX_SAFE_INTEGER)],
    ['-1', undefined],
    ['+1', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    [' 1', undefined],
    ['9007199254740992', undefined],
    ['00000000000000001', undefined],
    ['abc', undefined],
    ['', undefined],
  ] as const) {
    assert.equal(integerIdKey(raw), key, raw);
    if (key !== undefined) assert.deepEqual(validate(Number(raw)), [], raw);
  }
  assert.deepEqual(validate(-1), ['/ minimum']);
  assert.deepEqual(validate(1.5), ['/ type']);
  assert.deepEqual(validate('1'), ['/ type']);
  assert.deepEqual(validate(Number.MAX_SAFE_INTEGER + 1), ['/ maximum']);
});

test('string ids: a path id and a body id follow the same rule (1–256 characters, none that a path cannot hold)', () => {
  const validate = violationsOf(stringId);
  const accepted = ['a', 'sigma-123', 'ä.ö_ü', 'x'.repeat(256), 'a:b', 'a+b'];
  const refused = ['', 'a b', 'a\tb', 'a\nb', 'a/b', 'a?b', 'a#b', 'a%b', 'a\\b', 'x'.repeat(257)];
  for (const raw of accepted) {
    assert.ok(isStringId(raw), JSON.stringify(raw));
    assert.deepEqual(validate(raw), [], JSON.stringify(raw));
  }
  for (const raw of refused) {
    assert.ok(!isStringId(raw), JSON.stringify(raw));
    assert.notDeepEqual(validate(raw), [], JSON.stringify(raw));
  }
  assert.deepEqual(validate(''), ['/ minLength', '/ pattern']);
  assert.deepEqual(validate('x'.repeat(257)), ['/ maxLength']);
  assert.deepEqual(validate(1), ['/ type']);
});
