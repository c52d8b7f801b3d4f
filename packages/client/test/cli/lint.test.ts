import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { weirctl } from '../helpers/weirctl.ts';

/** `weirctl lint` as a user runs it (bin/weirctl.js, a child process, no server). */
const dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-lint-'));
const configHome = path.join(dir, 'config');
after(() => rmSync(dir, { recursive: true, force: true }));
const example = path.resolve(import.meta.dirname, '../../../../docs/examples/rule-repository/rules');

function folder(name: string, files: Record<string, string>): string {
  const root = path.join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

test('the documented rule repository lints clean: exit 0, nothing printed', async () => {
  const r = await weirctl(['lint', example], { configHome });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, '0 error(s), 0 warning(s), 0 info(s)\n');
});

const files = {
  'bad.pdl': 'user = "root" AND\n  user != "root"\n',
  'broken.pdl': 'x = ',
  'rules.yaml': [
    'kind: Rule',
    'spec: {id: login-fail, name: f, pdl: "x ~= \\"a$b\\""}',
    '---',
    'kind: Task',
    'spec: {id: 3, name: apply, function: APPLY_RULES, definition: {rules: [login-fial, bad]}}',
    '',
  ].join('\n'),
  'sigma/rule.yml':
    'title: t\nlogsource: {product: linux}\ndetection:\n  sel:\n    Image|endwith: x\n  condition: sel\ntags: [attack.t1690]\n',
};

test('errors and warnings: file:line:col severity code message, exit 1', async () => {
  const root = folder('mixed', files);
  const r = await weirctl(['lint', root], { configHome, cwd: root });
  assert.equal(r.code, 1);
  const lines = r.stdout
    .replaceAll(root + path.sep, '')
    .trimEnd()
    .split('\n');
  assert.deepEqual(lines, [
    'bad.pdl:1:1 warning PDL_NEVER_TRUE this condition is never true: `user = "root"` AND `user != "root"` holds for no event: one is the negation of the other',
    "broken.pdl:1:5 error PDL_SYNTAX expected a value after '=', found end of input",
    `rules.yaml#1:1:6 warning PDL_REGEX_NEVER_MATCHES the regular expression "a$b" can match no text: '$' (the end of the text) at column 2 is followed by 'b', which must come after it`,
    "sigma/rule.yml:5:5 error SIGMA_UNKNOWN_MODIFIER unknown modifier 'endwith' (did you mean 'endswith'?) [fix: Write Image|endswith]",
    "sigma/rule.yml:7:8 warning SIGMA_ATTACK_UNKNOWN ATT&CK technique T1690 is not in Weir's ATT&CK table (v18.1); it may be newer than the table",
    'rules.yaml#2 definition.rules[0] warning RULE_UNKNOWN rule `login-fial` does not exist: the task skips it and it never fires (did you mean `login-fail`?)',
  ]);
  assert.equal(r.stderr, '2 error(s), 4 warning(s), 0 info(s)\n');
});

test('warnings alone exit 0; --strict makes them fail; -o json', async () => {
  const root = folder('warnings', { 'bad.pdl': files['bad.pdl'] });
  assert.equal((await weirctl(['lint', root], { configHome })).code, 0);
  assert.equal((await weirctl(['lint', '--strict', root], { configHome })).code, 1);
  const r = await weirctl(['lint', path.join(root, 'bad.pdl'), '-o', 'json'], { configHome });
  assert.equal(r.code, 0, r.stderr);
  const body = JSON.parse(r.stdout) as {
    errors: number;
    warnings: number;
    diagnostics: { where: string; code: string; endLine: number }[];
  };
  assert.deepEqual(
    { errors: body.errors, warnings: body.warnings, first: [body.diagnostics[0]?.code, body.diagnostics[0]?.endLine] },
    { errors: 0, warnings: 1, first: ['PDL_NEVER_TRUE', 2] },
  );
});

test('a path that does not exist: a usage error, exit 2', async () => {
  const r = await weirctl(['lint', path.join(dir, 'nope')], { configHome });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /lint: .*nope: no such file or folder/);
});

test('--sample without --topic, or out of its bounds: a usage error (exit 2), nothing linted', async () => {
  const root = folder('usage', { 'bad.pdl': files['bad.pdl'] });
  const alone = await weirctl(['lint', '--sample', '5', root], { configHome });
  assert.deepEqual(
    [alone.code, alone.stdout, alone.stderr.split('\n')[0]],
    [2, '', 'error: lint: --sample is how many records of --topic are read; give --topic'],
  );
  const big = await weirctl(['lint', '--topic', 'logs', '--sample', '5000', root], { configHome });
  assert.deepEqual(
    [big.code, big.stdout, big.stderr.split('\n')[0]],
    [2, '', "error: lint: --sample must be a whole number from 1 to 1000, found '5000'"],
  );
});
