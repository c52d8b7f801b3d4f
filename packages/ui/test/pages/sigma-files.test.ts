import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { bundle, isSigmaFileName, sourceLabel, splitDocuments } from '../../src/pages/sigma-files.ts';

const rule = (title: string) => `title: ${title}\nlogsource: {product: windows}\ndetection: {s: {a: 1}, condition: s}`;

test('documents are split at --- lines; ... ends one; empty and comment-only documents are none', () => {
  assert.deepEqual(splitDocuments(`# a comment\n---\n${rule('A')}\n---\n# only a comment\n---\n${rule('B')}\n...\n`), [
    rule('A'),
    rule('B'),
  ]);
  assert.deepEqual(splitDocuments('\r\n  \r\n# x\r\n'), []);
  assert.deepEqual(splitDocuments(`--- # first\n${rule('A')}`), [rule('A')]);
  // Block scalars are indented: a `---` inside one is not at the start of a line.
  const block = 'title: A\ndescription: |\n  one\n  ---\n  two';
  assert.deepEqual(splitDocuments(block), [block]);
});

test('bundle: every file`s documents in one stream, each traced to its file; empty files named', () => {
  const sigmaHq = readFileSync(
    '/work/shared/data/sigma/rules/windows/process_creation/proc_creation_win_xwizard_execution_non_default_location.yml',
    'utf8',
  );
  const b = bundle([
    { name: 'rules/xwizard.yml', text: sigmaHq },
    { name: 'rules/empty.yml', text: '# nothing yet\n' },
    { name: 'rules/two.yaml', text: `${rule('A')}\n---\n${rule('B')}\n` },
  ]);
  assert.deepEqual(b.yaml, `${sigmaHq.trimEnd()}\n---\n${rule('A')}\n---\n${rule('B')}`);
  assert.deepEqual(b.sources, [
    { file: 'rules/xwizard.yml', index: 1 },
    { file: 'rules/two.yaml', index: 1 },
    { file: 'rules/two.yaml', index: 2 },
  ]);
  assert.deepEqual(b.empty, ['rules/empty.yml']);
  assert.deepEqual(
    [0, 1, 2, 3].map((d) => sourceLabel(b, d)),
    ['rules/xwizard.yml', 'rules/two.yaml (document 1)', 'rules/two.yaml (document 2)', 'document 3'],
  );
});

test('isSigmaFileName: .yml and .yaml, any case', () => {
  assert.deepEqual(['a.yml', 'b.YAML', 'c.json', 'README.md', 'yml'].map(isSigmaFileName), [
    true,
    true,
    false,
    false,
    false,
  ]);
});
