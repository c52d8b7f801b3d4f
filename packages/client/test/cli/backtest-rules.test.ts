import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadRules, ruleFiles } from '../../src/cli/backtest-rules.ts';
import { loadMapping } from '../../src/cli/sigma-convert.ts';

/** `weirctl backtest`'s rules folder: which files are read, what each holds, and the errors that name file and position. */
const dir = mkdtempSync(path.join(os.tmpdir(), 'weir-backtest-rules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
}

const mapping = () => loadMapping(undefined, undefined);

test('a folder: its .pdl, manifest and Sigma files, recursively and sorted; dot files and other extensions left out', () => {
  const root = path.join(dir, 'repo');
  file('repo/b-root.pdl', 'user="root"\n');
  file('repo/notes.txt', 'not a rule');
  file('repo/.hidden.pdl', 'x=1');
  file(
    'repo/a/rules.yaml',
    'kind: Rule\nspec:\n  id: many-fails\n  name: many fails\n  pdl: status="failed"\n---\nkind: Lookup\nspec:\n  id: admins\n  content: [{user: root}]\n---\nkind: Topic\nspec:\n  name: events\n',
  );
  file(
    'repo/sigma/whoami.yml',
    'title: Whoami\nid: 8b6f8f67-3c61-4c19-9f6b-52d7d5e2c1a0\nlogsource: {product: windows, category: process_creation}\ndetection:\n  sel: {Image|endswith: \\whoami.exe}\n  condition: sel\nlevel: low\n',
  );
  const files = ruleFiles([root]);
  assert.deepEqual(
    files.map((f) => path.relative(root, f)),
    ['a/rules.yaml', 'b-root.pdl', 'sigma/whoami.yml'],
  );
  const set = loadRules(files, mapping);
  assert.deepEqual(
    set.rules.map((r) => [r.id, r.source, r.enabled, path.relative(root, r.where)]),
    [
      ['many-fails', 'manifest', true, 'a/rules.yaml#1'],
      ['b-root', 'pdl', true, 'b-root.pdl'],
      ['sigma-8b6f8f67-3c61-4c19-9f6b-52d7d5e2c1a0', 'sigma', true, 'sigma/whoami.yml#0'],
    ],
  );
  assert.equal(set.ignored.length, 1);
  assert.match(set.ignored[0]!, /\(Topic events\)$/);
  assert.notEqual(set.rules[1]!.compiled.run({ user: 'root' }), null);
  assert.equal(set.rules[1]!.compiled.run({ user: 'alice' }), null);
});

test('bad input: a rule that does not compile (file, line, column), a duplicate id, a bad file name, a missing path', () => {
  const broken = file('bad/broken.pdl', 'user="root"\n| stats count( by user\n');
  assert.throws(() => loadRules([broken], mapping), { message: /broken\.pdl:2:\d+: rule 'broken' does not compile/ });
  const one = file('dup/x.pdl', 'a=1');
  const two = file('dup/m.yaml', 'kind: Rule\nspec:\n  id: x\n  name: x\n  pdl: a=2\n');
  assert.throws(() => loadRules([one, two], mapping), { message: /rule id 'x' is already defined in .*x\.pdl$/ });
  const spaced = file('names/has space.pdl', 'a=1');
  assert.throws(() => loadRules([spaced], mapping), { message: /the file name gives the rule id 'has space'/ });
  assert.throws(() => ruleFiles([path.join(dir, 'nowhere')]), {
    message: /^--rules .*nowhere: no such file or folder$/,
  });
});
