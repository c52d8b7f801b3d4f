import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configKinds, lookupKind } from '@weir/contract';
import { countOf, kindLabels } from '../../src/lib/kind-labels.ts';

/** The words the resource pages show come from the kinds registry (@weir/contract). */
const shown = (l: ReturnType<typeof kindLabels>, id: string | number, name?: string) => [
  l.title,
  l.listPath,
  l.newRecord,
  l.record(id),
  l.row(id),
  l.deleting(name === undefined ? { id } : { id, name }),
  l.count(2),
  l.rowTestId,
];

test('each configuration kind: heading, path, new button, drawer title, row, delete dialog, count, row test id', () => {
  assert.deepEqual(shown(kindLabels(configKinds.tasks), 3, 'parse'), [
    'Tasks',
    '/tasks',
    'New task',
    'Task 3',
    'task 3',
    'task 3 (parse)',
    '2 tasks',
    'task-row',
  ]);
  assert.deepEqual(shown(kindLabels(configKinds.pipelines), 1, 'main'), [
    'Pipelines',
    '/pipelines',
    'New pipeline',
    'Pipeline 1',
    'pipeline 1',
    'pipeline 1 (main)',
    '2 pipelines',
    'pipeline-row',
  ]);
  assert.deepEqual(shown(kindLabels(configKinds.topologies), 5, 'replay'), [
    'Topologies',
    '/topologies',
    'New topology',
    'Topology 5',
    'topology 5',
    'topology 5 (replay)',
    '2 topologies',
    'topology-row',
  ]);
  assert.deepEqual(shown(kindLabels(configKinds.rules), 'failed-login', 'Failed login'), [
    'Rules',
    '/rules',
    'New rule',
    'Rule failed-login',
    'rule failed-login',
    'rule failed-login (Failed login)',
    '2 rules',
    'rule-row',
  ]);
});

test('the count is singular for exactly one record, plural otherwise; countOf does the same for any word', () => {
  assert.deepEqual(
    [0, 1, 2].map((n) => kindLabels(configKinds.topologies).count(n)),
    ['0 topologies', '1 topology', '2 topologies'],
  );
  assert.deepEqual(
    [1, 3].map((n) => kindLabels(lookupKind).count(n)),
    ['1 lookup', '3 lookups'],
  );
  assert.deepEqual(
    [
      countOf(1, 'row'),
      countOf(2, 'row'),
      countOf(1, 'entry', 'entries'),
      countOf(1200, 'message', 'messages', '1,200'),
    ],
    ['1 row', '2 rows', '1 entry', '1,200 messages'],
  );
});

test('a record without a name (a lookup) is named by its id alone', () => {
  assert.deepEqual(shown(kindLabels(lookupKind), 'users'), [
    'Lookups',
    '/lookups',
    'New lookup',
    'Lookup users',
    'lookup users',
    'lookup users',
    '2 lookups',
    'lookup-row',
  ]);
});
