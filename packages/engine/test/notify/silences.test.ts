import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredSilence } from '@weir/contract';
import { readAlert } from '@weir/contract';
import type { NotifiedAlert } from '../../src/notify/matcher.ts';
import { noAlertSilenced, silencedBy } from '../../src/notify/silences.ts';

const T0 = Date.UTC(2026, 10, 26, 8);
const alert = (rule: string, time: number) =>
  readAlert({
    user: 'svc',
    _rule: { id: rule },
    _alert: { id: 'a'.repeat(32), severity: 'high', techniques: [], time },
  }) as NotifiedAlert;
const silence = (value: string, from: number, to: number): StoredSilence => ({
  id: `s-${value}`,
  matchers: [{ field: '_rule.id', op: '=', value }],
  startsAt: new Date(from).toISOString(),
  endsAt: new Date(to).toISOString(),
  comment: 'c',
  createdBy: 'ann',
  createdAt: new Date(from).toISOString(),
});

test('without silences no alert is silenced', () => {
  assert.equal(noAlertSilenced(alert('r1', T0), T0), false);
  assert.equal(silencedBy(() => [])(alert('r1', T0), T0), false);
});

test("silenced by a matching silence active at delivery or at the alert's time; not by others", () => {
  const hour = 3_600_000;
  let stored = [silence('r1', T0 - hour, T0 + hour)];
  const silenced = silencedBy(() => stored);
  assert.equal(silenced(alert('r1', T0 - 5 * hour), T0), true, 'active at delivery');
  assert.equal(silenced(alert('r1', T0), T0 + 5 * hour), true, "active at the alert's time");
  assert.equal(silenced(alert('r1', T0 - 5 * hour), T0 + 5 * hour), false, 'active at neither');
  assert.equal(silenced(alert('r2', T0), T0), false, 'another rule');
  // read per alert: a silence removed from the store no longer silences
  stored = [];
  assert.equal(silenced(alert('r1', T0), T0), false);
});
