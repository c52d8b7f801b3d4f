import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listQuery, triage } from '../../src/cli/alerts.ts';
import { UsageError } from '../../src/cli/errors.ts';

test('list flags become the API query: repeated filters as lists, --field as field.<path>', () => {
  assert.deepEqual(
    listQuery({
      severity: ['high', 'critical'],
      'min-severity': 'low',
      status: ['new'],
      technique: ['T1110'],
      rule: 'failed-login',
      q: 'root',
      field: ['user=alice', 'host.name=web=1'],
      from: '2026-11-26T00:00:00Z',
      limit: '50',
    }),
    {
      from: '2026-11-26T00:00:00Z',
      severity: ['high', 'critical'],
      minSeverity: 'low',
      status: ['new'],
      technique: ['T1110'],
      rule: 'failed-login',
      q: 'root',
      limit: 50,
      'field.user': 'alice',
      'field.host.name': 'web=1',
    },
  );
  assert.deepEqual(listQuery({}), {});
});

test('a wrong filter is a usage error naming the flag and the choices', () => {
  assert.throws(
    () => listQuery({ severity: ['severe'] }),
    /--severity must be one of informational, low, medium, high, critical, found 'severe'/,
  );
  assert.throws(
    () => listQuery({ status: ['open'] }),
    /--status must be one of new, acknowledged, closed, found 'open'/,
  );
  assert.throws(() => listQuery({ field: ['user'] }), /--field 'user': write path=value/);
  assert.throws(() => listQuery({ limit: 'ten' }), UsageError);
});

test('ack and close: the status, with the resolution, assignee and note given', () => {
  assert.deepEqual(triage({ note: 'looking', assignee: 'ann' }, 'acknowledged'), {
    status: 'acknowledged',
    assignee: 'ann',
    note: 'looking',
  });
  assert.deepEqual(triage({ resolution: 'false_positive' }, 'closed'), {
    status: 'closed',
    resolution: 'false_positive',
  });
  assert.throws(
    () => triage({}, 'closed'),
    /alerts close: give --resolution \(true_positive, false_positive, benign, duplicate, other\)/,
  );
  assert.throws(() => triage({ resolution: 'benign' }, 'acknowledged'), /--resolution goes with close only/);
  assert.throws(() => triage({ resolution: 'fp' }, 'closed'), /--resolution must be one of/);
});
