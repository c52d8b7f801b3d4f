import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsumedMessage } from '@weir/client';
import { IncrementalFilter, messageEvent, pdlFilter, textFilter } from '../../src/pages/message-filter.ts';

const msg = (value: unknown, key: unknown = null): ConsumedMessage => ({
  key,
  value,
  partition: 0,
  offset: 0,
  timestamp: 1_700_000_000_000,
});
const messages = [
  msg('{"user":"alice","status":"failed","n":7}', 'k1'),
  msg({ user: 'bob', status: 'ok', n: 1 }),
  msg('user=carol action=logout', 'CAROL-KEY'),
  msg('[1,2]'),
];

test('a PDL filter keeps the messages the query has an output for; text values are {_raw}', () => {
  const f = pdlFilter('status="failed" AND n > 5');
  assert.ok(f.ok);
  assert.deepEqual(
    messages.filter(f.test).map((m) => m.key),
    ['k1'],
  );
  const raw = pdlFilter('_raw="*carol*"');
  assert.ok(raw.ok);
  assert.deepEqual(
    messages.filter(raw.test).map((m) => m.key),
    ['CAROL-KEY'],
  );
  assert.deepEqual(messageEvent(messages[3]!), { _raw: '[1,2]' });
  assert.equal(messageEvent(messages[0]!), messageEvent(messages[0]!), 'parsed once, kept with the message');
});

test('a PDL filter error names line and column; correlations and unknown lookups are refused', () => {
  const bad = pdlFilter('action="login" AND\nattempts >');
  assert.equal(bad.ok, false);
  assert.ok(
    !bad.ok && bad.line === 2 && bad.column === 11 && /expected a number, string or field after '>'/.test(bad.message),
  );
  assert.ok(!bad.ok && bad.excerpt?.includes('^'));
  const corr = pdlFilter('event_count timespan=5m group_by user');
  assert.ok(!corr.ok && /cannot hold correlation stages/.test(corr.message));
  const lookup = pdlFilter('lookup nope user OUTPUT team', []);
  assert.ok(!lookup.ok && lookup.line === 1, JSON.stringify(lookup));
  const known = pdlFilter('lookup teams user OUTPUT team | team="red"', [
    { id: 'teams', content: [{ user: 'alice', team: 'red' }] },
  ]);
  assert.ok(known.ok, JSON.stringify(known));
  assert.deepEqual(
    messages.filter(known.test).map((m) => m.key),
    ['k1'],
  );
});

test('the text filter looks at key and value in any case', () => {
  assert.deepEqual(
    messages.filter(textFilter('carol-key')!).map((m) => m.key),
    ['CAROL-KEY'],
  );
  assert.deepEqual(messages.filter(textFilter('BOB')!).length, 1);
  assert.equal(textFilter(''), undefined);
});

test('the incremental filter tests only new messages, and starts over when the buffer drops or the predicate changes', () => {
  const buffer: ConsumedMessage[] = [msg('a1'), msg('b1')];
  const seen: unknown[] = [];
  const hasA: (m: ConsumedMessage) => boolean = (m) => {
    seen.push(m.value);
    return String(m.value).startsWith('a');
  };
  const f = new IncrementalFilter();
  assert.deepEqual(
    f.apply(buffer, hasA, 0).map((m) => m.value),
    ['a1'],
  );
  buffer.push(msg('a2'), msg('b2'));
  assert.deepEqual(
    f.apply(buffer, hasA, 0).map((m) => m.value),
    ['a1', 'a2'],
  );
  assert.deepEqual(seen, ['a1', 'b1', 'a2', 'b2'], 'each message tested once');
  buffer.splice(0, 1);
  assert.deepEqual(
    f.apply(buffer, hasA, 1).map((m) => m.value),
    ['a2'],
    'a drop from the head starts over',
  );
  const hasB = (m: ConsumedMessage) => String(m.value).startsWith('b');
  assert.deepEqual(
    f.apply(buffer, hasB, 1).map((m) => m.value),
    ['b1', 'b2'],
  );
  assert.deepEqual(
    f.apply([msg('b3')], hasB, 1).map((m) => m.value),
    ['b3'],
    'a new buffer starts over',
  );
});
