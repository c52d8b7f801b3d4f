import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  matcherText,
  parseMatcherText,
  silenceBody,
  silenceListQuery,
  silenceOps,
  silenceState,
  silenceStates,
} from '../src/silences.ts';
import { violationsOf } from './helpers/ajv.ts';

const body = {
  matchers: [{ field: '_rule.id', op: '=', value: 'failed-login' }],
  endsAt: '2026-11-23T08:00:00Z',
  comment: 'maintenance',
};

test("a silence's ops and states are Alertmanager's", () => {
  assert.deepEqual(silenceOps, ['=', '!=', '=~', '!~']);
  assert.deepEqual(silenceStates, ['pending', 'active', 'expired']);
});

test('a silence body: matchers (at least one), end and comment required; times as text or epoch ms', () => {
  const validate = violationsOf(silenceBody);
  assert.deepEqual(validate(body), []);
  assert.deepEqual(validate({ ...body, startsAt: 1700000000000, endsAt: 1700000360000 }), []);
  assert.deepEqual(validate({ ...body, matchers: [] }), ['/matchers minItems']);
  assert.deepEqual(validate({ ...body, matchers: [{ field: '', op: '==', value: 'x' }] }).sort(), [
    '/matchers/0/field minLength',
    '/matchers/0/op enum',
  ]);
  assert.deepEqual(validate({ ...body, matchers: [{ field: 'a', op: '=' }] }), ['/matchers/0 required']);
  assert.deepEqual(validate({ ...body, comment: 'x'.repeat(4097) }), ['/comment maxLength']);
  assert.deepEqual(validate({ ...body, comment: '' }), ['/comment minLength']);
  assert.deepEqual(validate({ ...body, endsAt: 1.5 }), ['/endsAt type']);
  assert.deepEqual(validate({ ...body, id: 'x' }), ['/ additionalProperties']);
  const { endsAt: _e, ...noEnd } = body;
  assert.deepEqual(validate(noEnd), ['/ required']);
});

test('the list query filters by state only', () => {
  const validate = violationsOf(silenceListQuery);
  assert.deepEqual(validate({ state: 'active' }), []);
  assert.deepEqual(validate({ state: 'silenced' }), ['/state enum']);
  assert.deepEqual(validate({ user: 'x' }), ['/ additionalProperties']);
});

test('a state: pending before the start, active from the start, expired from the end on', () => {
  const s = { startsAt: '2026-11-23T06:00:00.000Z', endsAt: '2026-11-23T08:00:00.000Z' };
  const start = Date.parse(s.startsAt);
  const end = Date.parse(s.endsAt);
  assert.equal(silenceState(s, start - 1), 'pending');
  assert.equal(silenceState(s, start), 'active');
  assert.equal(silenceState(s, end - 1), 'active');
  assert.equal(silenceState(s, end), 'expired');
  assert.equal(silenceState(s, end + 86_400_000), 'expired');
});

test('a matcher as text reads back: field, the first operator after it, the value as written', () => {
  assert.deepEqual(parseMatcherText('host.name=~web-[0-9]+'), { field: 'host.name', op: '=~', value: 'web-[0-9]+' });
  assert.deepEqual(parseMatcherText('a != b=c'), { field: 'a', op: '!=', value: ' b=c' });
  assert.equal(parseMatcherText('no operator'), undefined);
  assert.equal(parseMatcherText(' =x'), undefined);
  assert.equal(matcherText({ field: 'user', op: '=', value: 'x"y' }), 'user="x\\"y"');
});
