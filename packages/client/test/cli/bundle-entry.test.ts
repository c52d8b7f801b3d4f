import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

/** The built CLI's input runs weirctl when loaded: run as a script, it answers like `weirctl`. */
const entry = path.resolve(import.meta.dirname, '../../src/cli/bundle-entry.ts');
const weirctl = (...args: string[]) =>
  spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', entry, ...args], { encoding: 'utf8' });

test('loading the entry runs weirctl with the process arguments and exit code', () => {
  const help = weirctl('--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^weirctl: the command line of Weir\n\nUsage: weirctl <command> \[arguments\] \[flags\]\n/);

  const unknown = weirctl('frobnicate');
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stdout, '');
  assert.match(unknown.stderr, /^error: unknown command 'frobnicate' \(one of login, /);
});
