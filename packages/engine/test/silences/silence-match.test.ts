import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SilenceMatcher, StoredSilence } from '@weir/contract';
import { fieldProblem, matcherRegExp, silenceMatches, silencesMatching } from '../../src/silences/silence-match.ts';

const start = Date.parse('2026-11-23T06:00:00.000Z');
const end = Date.parse('2026-11-23T08:00:00.000Z');
const during = start + 1000;

let n = 0;
function silence(matchers: SilenceMatcher[], times: { startsAt?: string; endsAt?: string } = {}): StoredSilence {
  return {
    id: `s${++n}`,
    matchers,
    startsAt: times.startsAt ?? new Date(start).toISOString(),
    endsAt: times.endsAt ?? new Date(end).toISOString(),
    comment: 'test',
    createdBy: 'alice',
    createdAt: new Date(start).toISOString(),
  };
}

const alert = {
  user: 'alice',
  port: 22,
  admin: false,
  nothing: null,
  host: { name: 'web-1', ip: '10.0.0.1' },
  'src.ip': '192.0.2.7',
  tags: ['ssh', 'brute-force', 3],
  empty: [],
  _rule: { id: 'failed-login', name: 'Failed login', annotations: ['T1110'] },
  _alert: { severity: 'high', techniques: ['T1110', 'T1110.001'] },
};

const holds = (field: string, op: SilenceMatcher['op'], value: string) =>
  silenceMatches(alert, silence([{ field, op, value }]));

test('= and != compare the whole text; numbers and booleans as their JSON text', () => {
  assert.equal(holds('user', '=', 'alice'), true);
  assert.equal(holds('user', '=', 'Alice'), false);
  assert.equal(holds('user', '=', 'ali'), false);
  assert.equal(holds('user', '!=', 'bob'), true);
  assert.equal(holds('user', '!=', 'alice'), false);
  assert.equal(holds('port', '=', '22'), true);
  assert.equal(holds('admin', '=', 'false'), true);
});

test('=~ and !~ match the whole value (anchored as Alertmanager), unicode syntax', () => {
  assert.equal(holds('user', '=~', 'al.*'), true);
  assert.equal(holds('user', '=~', 'li'), false, 'a part of the value is not a match');
  assert.equal(holds('user', '=~', 'bob|alice'), true, 'alternatives stay inside the anchors');
  assert.equal(holds('user', '!~', 'bob|carol'), true);
  assert.equal(holds('user', '!~', 'a.*'), false);
  assert.equal(holds('port', '=~', '2[0-9]'), true);
  assert.throws(() => matcherRegExp('('), SyntaxError);
  assert.throws(() => matcherRegExp('\\_'), SyntaxError, 'the u flag refuses needless escapes');
});

test('nested fields by dots; a key with dots in it is found whole', () => {
  assert.equal(holds('host.name', '=', 'web-1'), true);
  assert.equal(holds('_rule.id', '=', 'failed-login'), true);
  assert.equal(holds('_alert.severity', '=~', 'high|critical'), true);
  assert.equal(holds('src.ip', '=', '192.0.2.7'), true);
  assert.equal(holds('host', '=', 'web-1'), false, 'an object has no value');
  assert.equal(holds('host.name.first', '=', 'web-1'), false);
});

test('a missing field, null, an object or an empty array is "" (Alertmanager: a missing label)', () => {
  for (const field of ['nope', 'host.nope', 'nothing', 'host', 'empty', 'user.name']) {
    assert.equal(holds(field, '=', ''), true, `${field} = ""`);
    assert.equal(holds(field, '=', 'x'), false, `${field} = x`);
    assert.equal(holds(field, '!=', 'x'), true, `${field} != x`);
    assert.equal(holds(field, '!=', ''), false, `${field} != ""`);
    assert.equal(holds(field, '=~', '.*'), true, `${field} =~ .*`);
    assert.equal(holds(field, '=~', '.+'), false, `${field} =~ .+`);
    assert.equal(holds(field, '!~', '.+'), true, `${field} !~ .+`);
  }
  assert.equal(holds('user', '=', ''), false);
});

test('an array: = and =~ hold when any element matches; != and !~ when none does', () => {
  assert.equal(holds('tags', '=', 'ssh'), true);
  assert.equal(holds('tags', '=', '3'), true);
  assert.equal(holds('tags', '=', 'rdp'), false);
  assert.equal(holds('tags', '!=', 'rdp'), true);
  assert.equal(holds('tags', '!=', 'ssh'), false, 'one element is ssh');
  assert.equal(holds('_alert.techniques', '=~', 'T1110\\..*'), true);
  assert.equal(holds('_alert.techniques', '!~', 'T1059.*'), true);
  assert.equal(holds('_alert.techniques', '!~', 'T1110.*'), false);
  assert.equal(holds('_rule.annotations', '=', 'T1110'), true);
});

test('every matcher must hold', () => {
  const both = silence([
    { field: '_rule.id', op: '=', value: 'failed-login' },
    { field: 'host.name', op: '=~', value: 'web-.*' },
  ]);
  assert.equal(silenceMatches(alert, both), true);
  assert.equal(silenceMatches({ ...alert, host: { name: 'db-1' } }, both), false);
});

test('silencesMatching: the ids of the silences active at the time whose matchers hold, in order', () => {
  const rule = silence([{ field: '_rule.id', op: '=', value: 'failed-login' }]);
  const other = silence([{ field: '_rule.id', op: '=', value: 'port-scan' }]);
  const host = silence([{ field: 'host.name', op: '=~', value: 'web-[0-9]+' }]);
  const all = [rule, other, host];
  assert.deepEqual(silencesMatching(alert, all, during), [rule.id, host.id]);
  assert.deepEqual(silencesMatching(alert, all, start), [rule.id, host.id], 'active from the start');
  assert.deepEqual(silencesMatching(alert, all, start - 1), [], 'pending');
  assert.deepEqual(silencesMatching(alert, all, end - 1), [rule.id, host.id]);
  assert.deepEqual(silencesMatching(alert, all, end), [], 'expired at the end');
  assert.deepEqual(silencesMatching({ user: 'bob' }, all, during), []);
  assert.deepEqual(silencesMatching(alert, [], during), []);
});

test('a silence is compiled once: the same object keeps the matchers it was first seen with', () => {
  const s = silence([{ field: 'user', op: '=~', value: 'al.*' }]);
  assert.deepEqual(silencesMatching(alert, [s], during), [s.id]);
  // Stored silences are immutable (an edit stores a new object); a changed object is not re-read.
  (s.matchers as SilenceMatcher[])[0] = { field: 'user', op: '=~', value: 'bob' };
  assert.deepEqual(silencesMatching(alert, [s], during), [s.id]);
  const edited = { ...s, matchers: [{ field: 'user', op: '=~' as const, value: 'bob' }] };
  assert.deepEqual(silencesMatching(alert, [edited], during), []);
});

test('a field path: keys joined by single dots', () => {
  assert.equal(fieldProblem('host.name'), undefined);
  assert.equal(fieldProblem('_rule.id'), undefined);
  for (const bad of ['a..b', '.a', 'a.', '.'])
    assert.equal(
      fieldProblem(bad),
      `'${bad}' is not a field path: keys joined by single dots, none empty (e.g. _rule.id, host.name)`,
    );
});
