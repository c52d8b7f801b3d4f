import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Silence } from '@weir/contract';
import { silenceDraft, silenceRequest } from '../../src/pages/silence-form.ts';

const T0 = Date.UTC(2026, 10, 23, 6);

test('a new silence starts now and lasts 2 hours; given matchers (a "silence similar" link) are kept', () => {
  assert.deepEqual(silenceDraft(undefined, [], T0), {
    matchers: [{ field: '', op: '=', value: '' }],
    startsAt: '2026-11-23T06:00:00.000Z',
    endsAt: '2h',
    comment: '',
  });
  const m = [{ field: '_rule.id', op: '=' as const, value: 'r1' }];
  assert.deepEqual(silenceDraft(undefined, m, T0).matchers, m);
  const s = {
    id: 'x',
    matchers: m,
    startsAt: '2026-11-23T06:00:00.000Z',
    endsAt: '2026-11-23T07:00:00.000Z',
    comment: 'c',
    createdBy: 'a',
    createdAt: '2026-11-23T05:00:00.000Z',
    state: 'active',
  } satisfies Silence;
  assert.deepEqual(silenceDraft(s, [], T0), { matchers: m, startsAt: s.startsAt, endsAt: s.endsAt, comment: 'c' });
});

test('an end written as a duration counts from the start; times otherwise go as typed; fields trimmed', () => {
  const draft = {
    matchers: [{ field: ' user ', op: '!=' as const, value: ' root' }],
    startsAt: '2026-11-23T06:00:00Z',
    endsAt: '90m',
    comment: 'why',
  };
  assert.deepEqual(silenceRequest(draft), {
    matchers: [{ field: 'user', op: '!=', value: ' root' }],
    startsAt: '2026-11-23T06:00:00Z',
    endsAt: '2026-11-23T07:30:00.000Z',
    comment: 'why',
  });
  assert.equal(silenceRequest({ ...draft, endsAt: ' 2026-11-24T00:00:00Z ' }).endsAt, '2026-11-24T00:00:00Z');
  assert.equal(silenceRequest({ ...draft, endsAt: 'tomorrow' }).endsAt, 'tomorrow', 'the API names a bad end');
  assert.throws(
    () => silenceRequest({ ...draft, startsAt: 'soon' }),
    /Starts: 'soon' is not a date and time, so Ends '90m' has no start to count from/,
  );
});
