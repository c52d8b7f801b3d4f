import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../src/cli/errors.ts';
import { matcherText } from '@weir/contract';
import { durationMs, parseMatcher } from '../../src/cli/silence.ts';

test('a --match reads field, the first operator after it, and the value as written', () => {
  assert.deepEqual(parseMatcher('_rule.id=failed-login'), { field: '_rule.id', op: '=', value: 'failed-login' });
  assert.deepEqual(parseMatcher('host.name=~web-[0-9]+'), { field: 'host.name', op: '=~', value: 'web-[0-9]+' });
  assert.deepEqual(parseMatcher('user!=root'), { field: 'user', op: '!=', value: 'root' });
  assert.deepEqual(parseMatcher('cmd!~.*=x'), { field: 'cmd', op: '!~', value: '.*=x' });
  assert.deepEqual(parseMatcher('user='), { field: 'user', op: '=', value: '' });
  assert.throws(
    () => parseMatcher('no operator'),
    (e: Error) => e instanceof UsageError && /--match 'no operator': write field=value/.test(e.message),
  );
  assert.throws(() => parseMatcher('=x'), UsageError);
});

test('a matcher prints as field, operator and the quoted value', () => {
  assert.equal(matcherText({ field: 'user', op: '!=', value: 'root' }), 'user!="root"');
});

test('--for takes a whole number and s, m, h or d', () => {
  assert.deepEqual(['90s', '30m', '2h', '1d'].map(durationMs), [90_000, 1_800_000, 7_200_000, 86_400_000]);
  assert.throws(() => durationMs('2 hours'), /--for '2 hours': a whole number and a unit s, m, h or d/);
  assert.throws(() => durationMs('1.5h'), UsageError);
});
