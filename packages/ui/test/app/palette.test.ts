import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryDescription, paletteActions, resourcePath, type PaletteEntry } from '../../src/app/palette.ts';

/** The Ctrl+K palette's actions (app/palette.ts): pages first, then each kind's records named by the kinds registry. */
const entries: PaletteEntry[] = [
  { kind: 'Topologies', id: '4', name: 'auth-flow', to: resourcePath.topology(4) },
  { kind: 'Lookups', id: 'hosts', name: 'hosts', to: resourcePath.lookup('hosts') },
  { kind: 'Rules', id: 'failed-login', name: 'Failed login', to: resourcePath.rule('failed-login') },
  { kind: 'Topologies', id: '5', name: 'replay', to: resourcePath.topology(5) },
];

test("each record's line names its kind in the singular (the registry's, not a cut plural), with its id unless the name is it", () => {
  assert.deepEqual(
    entries.map((e) => entryDescription(e)),
    ['Topology 4', 'Lookup', 'Rule failed-login', 'Topology 5'],
  );
  assert.equal(entryDescription({ kind: 'Users', id: 'ada', name: 'Ada Lovelace' }), 'User ada');
  assert.equal(entryDescription({ kind: 'Topics', id: 'auth-logs', name: 'auth-logs' }), 'Topic');
  assert.equal(entryDescription({ kind: 'Pipelines', id: '1', name: 'main' }), 'Pipeline 1');
  assert.equal(entryDescription({ kind: 'Tasks', id: '2', name: 'parse' }), 'Task 2');
});

test('the actions: the pages group (each page), then one group per kind in the order first seen; a click navigates', () => {
  const went: string[] = [];
  const actions = paletteActions([{ path: '/rules', label: 'Rules' }], entries, (to) => went.push(to));
  assert.deepEqual(
    actions.map((g) => [g.group, g.actions.map((a) => [a.id, a.label, a.description])]),
    [
      ['Pages', [['page:/rules', 'Rules', 'Go to Rules']]],
      [
        'Topologies',
        [
          ['Topologies:4', 'auth-flow', 'Topology 4'],
          ['Topologies:5', 'replay', 'Topology 5'],
        ],
      ],
      ['Lookups', [['Lookups:hosts', 'hosts', 'Lookup']]],
      ['Rules', [['Rules:failed-login', 'Failed login', 'Rule failed-login']]],
    ],
  );
  actions[1]!.actions[1]!.onClick?.();
  assert.deepEqual(went, ['/topologies/5']);
});
