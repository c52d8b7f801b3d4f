import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

/**
 * processMain: weirctl as a process. A reader that closes early (`weirctl --help | head -1`) ends it
 * quietly with exit 0, not an EPIPE stack trace.
 */
const entry = path.resolve(import.meta.dirname, '../../src/cli/bundle-entry.ts');

test('a closed standard output ends weirctl quietly with exit 0', async () => {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', entry, '--help'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // the reader goes away before weirctl writes
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 0);
  assert.equal(stderr, '');
});

test('the arguments after the script are the command line', async () => {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', entry, 'help'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 0);
  assert.match(stdout, /^weirctl: the command line of Weir/);
});
