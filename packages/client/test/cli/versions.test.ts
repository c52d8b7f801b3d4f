import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommandLine } from '../../src/cli/args.ts';
import { UsageError } from '../../src/cli/errors.ts';
import { diffText, historyTable, noteFlag, versionArg, versionedKind } from '../../src/cli/versions.ts';

const usage = (f: () => unknown, message: string) =>
  assert.throws(f, (e: unknown) => e instanceof UsageError && e.message === message);

describe('weirctl version arguments', () => {
  test('the kinds that keep versions, by any of their names; others are refused naming the ones that do', () => {
    assert.deepEqual(
      ['rule', 'tasks', 'Pipeline', 'topology'].map((k) => versionedKind('history', k).plural),
      ['rules', 'tasks', 'pipelines', 'topologies'],
    );
    usage(
      () => versionedKind('history', 'topic'),
      'history: topics keep no versions; versions are kept for rules, tasks, pipelines, topologies',
    );
    usage(
      () => versionedKind('diff', 'rulez'),
      "diff: unknown kind 'rulez'; versions are kept for rules, tasks, pipelines, topologies",
    );
  });

  test('a version is a whole number from 1, named in the error', () => {
    assert.equal(versionArg('diff', 'from', '12'), 12);
    usage(
      () => versionArg('diff', 'to', '0'),
      "diff: <to> must be a version number (a whole number from 1), found '0'",
    );
    usage(
      () => versionArg('rollback', 'version', 'v2'),
      "rollback: <version> must be a version number (a whole number from 1), found 'v2'",
    );
    assert.throws(() => versionArg('history', 'version', '1.5'), UsageError);
  });

  test('--note: the text as given; blank or over 1000 characters is refused before anything is sent', () => {
    assert.equal(noteFlag(parseCommandLine(['apply', '-f', 'x', '--note', 'only root → admin'])), 'only root → admin');
    assert.equal(noteFlag(parseCommandLine(['apply', '-f', 'x'])), undefined);
    usage(
      () => noteFlag(parseCommandLine(['rollback', 'rule', 'r', '1', '--note', ' '])),
      'rollback: --note is blank; give the text of the change note',
    );
    usage(
      () => noteFlag(parseCommandLine(['delete', 'rule', 'r', '--note', 'x'.repeat(1001)])),
      'delete: --note has 1001 characters; a change note has at most 1000',
    );
  });
});

describe('weirctl version output', () => {
  test('history: one row per version, a rollback naming what it restored, no user as -', () => {
    assert.equal(
      historyTable([
        { version: 1, time: '2026-11-26T08:00:00.000Z', user: 'admin', action: 'create', note: 'first' },
        { version: 2, time: '2026-11-26T09:00:00.000Z', user: null, action: 'update' },
        { version: 3, time: '2026-11-26T10:00:00.000Z', user: 'ann', action: 'update', rollbackOf: 1, note: 'undo' },
      ]),
      [
        'VERSION  TIME                      USER   ACTION                  NOTE',
        '1        2026-11-26T08:00:00.000Z  admin  create                  first',
        '2        2026-11-26T09:00:00.000Z  -      update',
        '3        2026-11-26T10:00:00.000Z  ann    update (rollback of 1)  undo',
        '',
      ].join('\n'),
    );
  });

  test("diff: changed, added and removed fields; a rule's PDL as a line diff in place of its field", () => {
    assert.equal(
      diffText('rule/shell', {
        from: 1,
        to: 3,
        changes: [
          { path: 'name', before: 'Shell', after: 'Shell spawned' },
          { path: 'annotations[1]', after: 'T1059' },
          { path: 'severity', before: 'low' },
          { path: 'pdl', before: 'a\nb', after: 'a\nc' },
        ],
        pdl: [
          { op: ' ', text: 'a' },
          { op: '-', text: 'b' },
          { op: '+', text: 'c' },
        ],
      }),
      [
        '--- rule/shell version 1',
        '+++ rule/shell version 3',
        '~ name: "Shell" → "Shell spawned"',
        '+ annotations[1]: "T1059"',
        '- severity: "low"',
        'pdl:',
        '    a',
        '  - b',
        '  + c',
        '',
      ].join('\n'),
    );
    assert.equal(
      diffText('task/2', { from: 2, to: 2, changes: [] }),
      'task/2: no differences between versions 2 and 2\n',
    );
    assert.equal(
      diffText('rule/r', { from: 1, to: 2, changes: [], pdl: [{ op: ' ', text: 'x' }] }),
      'rule/r: no differences between versions 1 and 2\n',
    );
  });
});
