import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EditorState, Text } from '@codemirror/state';
import type { LintResult } from '@weir/contract';
import { editorDiagnostics, fixChanges, lintRun, lintSampleOf, offsetAt } from '../../src/pdl/pdlLint.ts';

/** The lint answer's diagnostics as the editor's: positions, which are shown, the fix as an action. */
const doc = Text.of(['usr = "bob"', '  AND action = "x" | lookup userz user OUTPUT dept']);
const range = (line: number, column: number, endLine: number, endColumn: number) => ({
  line,
  column,
  endLine,
  endColumn,
});
const result = (diagnostics: LintResult['diagnostics']): LintResult => ({
  errors: diagnostics.filter((d) => d.severity === 'error').length,
  warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  infos: 0,
  diagnostics,
});

test('offsets of 1-based lines and columns, clamped to the text', () => {
  assert.deepEqual(
    [offsetAt(doc, 1, 1), offsetAt(doc, 1, 4), offsetAt(doc, 2, 7), offsetAt(doc, 1, 99), offsetAt(doc, 9, 1)],
    [0, 3, 18, 11, 12],
  );
});

test('warnings at their ranges with their fixes; errors only when they offer a fix; a position-less one at the start', () => {
  const fieldFix = { title: 'Use field `user`', edits: [{ range: range(1, 1, 1, 4), text: 'user' }] };
  const shown = editorDiagnostics(
    doc,
    result([
      {
        code: 'PDL_FIELD_NOT_SEEN',
        severity: 'warning',
        message: 'field `usr` …',
        ...range(1, 1, 1, 4),
        fix: fieldFix,
      },
      { code: 'PDL_ALWAYS_TRUE', severity: 'warning', message: 'always true', ...range(2, 7, 2, 19) },
      { code: 'PDL_INVALID', severity: 'error', message: 'shown by the syntax check', ...range(2, 1, 2, 4) },
      {
        code: 'PDL_UNKNOWN_LOOKUP',
        severity: 'error',
        message: 'lookup `userz` does not exist (did you mean `users`?)',
        ...range(2, 29, 2, 34),
        fix: { title: 'Use lookup `users`', edits: [{ range: range(2, 29, 2, 34), text: 'users' }] },
      },
      { code: 'RULE_UNKNOWN', severity: 'warning', message: 'no position', line: 0, column: 0 },
    ]),
  );
  assert.deepEqual(
    shown.map((d) => [d.from, d.to, d.severity, d.source, d.message, d.actions?.map((a) => a.name) ?? []]),
    [
      [0, 3, 'warning', 'PDL_FIELD_NOT_SEEN', 'field `usr` …', ['Use field `user`']],
      [18, 30, 'warning', 'PDL_ALWAYS_TRUE', 'always true', []],
      [
        40,
        45,
        'error',
        'PDL_UNKNOWN_LOOKUP',
        'lookup `userz` does not exist (did you mean `users`?)',
        ['Use lookup `users`'],
      ],
      [0, 0, 'warning', 'RULE_UNKNOWN', 'no position', []],
    ],
  );
});

test('a fix applies to the text it was made for, and to no other', () => {
  const fix = { title: 'Use field `user`', edits: [{ range: range(1, 1, 1, 4), text: 'user' }] };
  const [d] = editorDiagnostics(
    doc,
    result([{ code: 'PDL_FIELD_NOT_SEEN', severity: 'warning', message: 'm', ...range(1, 1, 1, 4), fix }]),
  );
  const view = (text: Text) => {
    let state = EditorState.create({ doc: text });
    return {
      get state() {
        return state;
      },
      dispatch: (spec: Parameters<EditorState['update']>[0]) => {
        state = state.update(spec).state;
      },
    };
  };
  const same = view(doc);
  d!.actions![0]!.apply(same as never, 0, 3);
  assert.equal(same.state.doc.line(1).text, 'user = "bob"');
  const changed = view(Text.of(['usr = "bob" AND x = 1', doc.line(2).text]));
  d!.actions![0]!.apply(changed as never, 0, 3);
  assert.equal(changed.state.doc.line(1).text, 'usr = "bob" AND x = 1');
});

test('fix edits: sorted; overlapping ones are no fix', () => {
  const edits = [
    { range: range(2, 7, 2, 13), text: 'act' },
    { range: range(1, 1, 1, 4), text: 'user' },
  ];
  assert.deepEqual(fixChanges(doc, { title: 't', edits }), [
    { from: 0, to: 3, insert: 'user' },
    { from: 18, to: 24, insert: 'act' },
  ]);
  assert.equal(fixChanges(doc, { title: 't', edits: [...edits, { range: range(1, 2, 1, 3), text: 'x' }] }), undefined);
});

/** The editor's lint sample: the test panel's events first, else the picked topic (bounded), else none. */
test('events first, then the topic with its count (1 to 1000), else nothing', () => {
  const events = [{ user: 'bob' }];
  assert.equal(lintSampleOf(events, 'logs', 20), events);
  assert.deepEqual(lintSampleOf([], 'logs', 20), { topic: 'logs', sample: 20 });
  assert.deepEqual(lintSampleOf([], 'logs', 5000), { topic: 'logs', sample: 1000 });
  assert.deepEqual(lintSampleOf([], 'logs', Number('')), { topic: 'logs' });
  assert.deepEqual(lintSampleOf([], 'logs', 0), { topic: 'logs' });
  assert.equal(lintSampleOf([], null, 20), undefined);
  assert.equal(lintSampleOf([], '', 20), undefined);
});

test('the linter: the answer for the text shown; a stale answer (the text changed meanwhile) shows nothing; a failure is an info', async () => {
  const warning = {
    code: 'PDL_ALWAYS_TRUE',
    severity: 'warning' as const,
    message: 'always true',
    ...range(1, 1, 1, 4),
  };
  const asked: string[] = [];
  let answer: (r: LintResult) => void = () => {};
  const run = lintRun({
    lint: (text) => {
      asked.push(text);
      return new Promise((resolve) => (answer = resolve));
    },
  });
  const view = { state: EditorState.create({ doc: 'a = 1' }) };
  const current = run(view);
  answer(result([warning]));
  assert.deepEqual(
    (await current).map((d) => [d.from, d.to, d.message]),
    [[0, 3, 'always true']],
  );

  const stale = run(view);
  view.state = view.state.update({ changes: { from: 5, insert: ' AND b = 2' } }).state;
  answer(result([warning]));
  assert.deepEqual(await stale, []);
  assert.deepEqual(asked, ['a = 1', 'a = 1']);

  const failing = lintRun({ lint: () => Promise.reject(new Error('Requested topic does not exist')) });
  assert.deepEqual(
    (await failing(view)).map((d) => [d.severity, d.message]),
    [['info', 'could not lint: Requested topic does not exist']],
  );
  const blank = lintRun({ lint: () => Promise.reject(new Error('not called')) });
  assert.deepEqual(await blank({ state: EditorState.create({ doc: '  ' }) }), []);
});
