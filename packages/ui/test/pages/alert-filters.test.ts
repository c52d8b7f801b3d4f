import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AlertView } from '@weir/client';
import {
  activeFilters,
  alertQuery,
  groupBy,
  groupFilter,
  mergeNewest,
  withParam,
} from '../../src/pages/alert-filters.ts';

test('the URL becomes the API query: repeatable filters as arrays, a range preset as from, field filters', () => {
  const search =
    '?severity=high&severity=critical&status=new&rule=r1&q=alice&range=1h&field.user=bob&group=rule&assignee=';
  assert.deepEqual(alertQuery(search, 10_000_000), {
    severity: ['high', 'critical'],
    status: ['new'],
    rule: 'r1',
    q: 'alice',
    from: String(10_000_000 - 3_600_000),
    'field.user': 'bob',
  });
  assert.deepEqual(alertQuery('?from=2026-01-01T00:00:00Z&to=5&range=2y&technique=T1110', 0), {
    from: '2026-01-01T00:00:00Z',
    to: '5',
    technique: ['T1110'],
  });
  assert.deepEqual(alertQuery('', 0), {});
});

test('group by: rule or field:<path>, nothing else', () => {
  assert.equal(groupBy('?group=rule'), 'rule');
  assert.equal(groupBy('?group=field:user.name'), 'field:user.name');
  assert.equal(groupBy('?group=field:'), undefined);
  assert.equal(groupBy('?group=host'), undefined);
  assert.equal(groupBy(''), undefined);
});

test('withParam sets, replaces and removes a parameter, keeping the others', () => {
  assert.equal(withParam('?a=1&status=new', 'status', ['new', 'closed']), '?a=1&status=new&status=closed');
  assert.equal(withParam('?a=1&status=new', 'status', undefined), '?a=1');
  assert.equal(withParam('?status=new', 'status', ''), '');
  assert.equal(withParam('', 'q', 'a b'), '?q=a+b');
});

test("a group's row filters the list by its rule or field value; an absent field sets none", () => {
  assert.equal(groupFilter('?group=rule', 'rule', 'failed-login'), '?group=rule&rule=failed-login');
  assert.equal(groupFilter('?group=field:user', 'field:user', 'alice'), '?group=field%3Auser&field.user=alice');
  assert.equal(groupFilter('?group=field:user', 'field:user', null), undefined);
  assert.deepEqual(activeFilters('?group=rule&rule=r1&q=&status=new'), [
    { key: 'rule', value: 'r1' },
    { key: 'status', value: 'new' },
  ]);
});

const alert = (id: string, time: number, status = 'new') => ({ id, time, status }) as AlertView;

test('a poll merges the first page into the loaded alerts: changes replace, new ones join, newest first', () => {
  const loaded = [alert('b', 300), alert('a', 300), alert('c', 200), alert('d', 100)];
  const merged = mergeNewest(loaded, [alert('e', 400), alert('f', 300), alert('b', 300, 'closed')]);
  assert.deepEqual(
    merged.map((a) => [a.id, a.status]),
    [
      ['e', 'new'],
      ['f', 'new'],
      ['b', 'closed'],
      ['a', 'new'],
      ['c', 'new'],
      ['d', 'new'],
    ],
  );
});
