import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertFilter, decodeCursor, encodeCursor, groupQuery } from '../../src/alerts/alert-query.ts';

test('alertFilter: defaults, severities at least, repeatable values, fields, cursor', () => {
  assert.deepEqual(alertFilter({}), { limit: 100 });
  assert.deepEqual(alertFilter({ minSeverity: 'high' }).severities, [3, 4]);
  assert.deepEqual(alertFilter({ minSeverity: 'high', severity: 'low' }).severities, [-1]);
  assert.deepEqual(alertFilter({ status: ['new', 'closed'], technique: 't1110' }), {
    statuses: ['new', 'closed'],
    techniques: ['T1110'],
    limit: 100,
  });
  assert.deepEqual(alertFilter({ 'field.src.ip': '10.0.0.1', from: '0', to: '2024-01-01T00:00:00Z' }), {
    from: 0,
    to: 1704067200000,
    fields: [['src.ip', '10.0.0.1']],
    limit: 100,
  });
  const cursor = encodeCursor({ time: 5, id: 'ab' });
  assert.deepEqual(decodeCursor(cursor), { time: 5, id: 'ab' });
  assert.throws(() => decodeCursor('!!'), /query.cursor is not a cursor/);
  assert.throws(() => alertFilter({ from: '5', to: '4' }), /query.from \(5\) is after query.to \(4\)/);
});

test('groupQuery: rule or field:<path>, else a 400 naming by', () => {
  assert.deepEqual(groupQuery({ by: 'rule' }), { by: { kind: 'rule' }, filter: {} });
  assert.deepEqual(groupQuery({ by: 'field:host.name', from: '1', severity: 'high', silenced: false }), {
    by: { kind: 'field', path: 'host.name' },
    filter: { from: 1, severities: [3], silenced: false },
  });
  assert.throws(
    () => groupQuery({ by: 'rule', status: 'open' }),
    /query.status must be one of new, acknowledged, closed; got 'open'/,
  );
  assert.throws(() => groupQuery({ by: 'field:' }), /query.by must name a field/);
  assert.throws(() => groupQuery({ by: 'user' }), /query.by must be 'rule' or 'field:<dotted path>'; got 'user'/);
});
