import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configKinds, lookupKind } from '@weir/contract';
import { kindLabels } from '../../src/lib/kind-labels.ts';

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
