import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestNode, type TestNode } from '@weir/test-helpers/test-node';

/**
 * weirctl anywhere (docs/cli.md, "Install anywhere"): `npm pack` of packages/client gives a tarball
 * that `npm install -g` installs offline into an empty folder, and the installed `weirctl` runs
 * there, outside the repository, on Node 24 and on the system's Node (20 on the CI image):
 * `--help`, `login` and `get rules` against a real node.
 */

const clientDir = path.resolve(import.meta.dirname, '../..');
const repo = path.resolve(clientDir, '../..');

/** Every Node to run the installed CLI with: this one (24) and the others on the machine, by real path. */
/** One Node binary per version found on this machine (two installs of one version are tested once). */
function nodes(): string[] {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const add = (p: string) => {
    if (!existsSync(p) || seen.has(realpathSync(p))) return;
    seen.add(realpathSync(p));
    const version = versionOf(p);
    if (!found.has(version)) found.set(version, p);
  };
  add(process.execPath);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter))
    if (dir !== '' && !path.resolve(dir).startsWith(repo)) add(path.join(dir, 'node'));
  for (const p of ['/usr/bin/node', '/usr/local/bin/node']) add(p);
  return [...found.values()];
}

const versionOf = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

function run(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

describe('the weirctl package, installed from its tarball', () => {
  let node: TestNode;
  let admin: string;
  let dir: string;
  let prefix: string;
  /** npm as this test's npm scripts see it: the repository's Node 24 first on the PATH. */
  const npmEnv = () => ({
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  });

  before(async () => {
    node = await startTestNode({ 'weir.engine.autostart': 'false' });
    admin = await node.initAdmin();
    const rule = {
      id: 'pkg-rule',
      name: 'Packaged',
      description: '',
      pdl: 'user="root"',
      annotations: [],
      enabled: true,
    };
    assert.equal((await node.call('POST', '/api/rules', { token: admin, body: rule })).status, 201);
    dir = mkdtempSync(path.join(os.tmpdir(), 'weirctl-package-'));
    // npm pack runs prepack: the CLI built into dist/ (scripts/cli-build.ts)
    const packed = await run('npm', ['pack', '--pack-destination', dir], { cwd: clientDir, env: npmEnv() });
    assert.equal(packed.code, 0, packed.stderr);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, `no tarball in ${dir}: ${packed.stdout}`);
    prefix = path.join(dir, 'prefix');
    // offline: the tarball holds everything; nothing is fetched
    const installed = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', path.join(dir, tarball)],
      { cwd: dir, env: npmEnv() },
    );
    assert.equal(installed.code, 0, installed.stderr);
  });
  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the tarball carries the launcher, the built CLI and the Sigma mappings, and no dependency to fetch', () => {
    const pkg = path.join(prefix, 'lib/node_modules/@weir/client');
    assert.deepEqual(readdirSync(pkg).sort(), ['bin', 'dist', 'package.json']);
    assert.deepEqual(readdirSync(path.join(pkg, 'dist/mappings')).sort(), [
      'evtx-json.yml',
      'padas.yml',
      'sigma.yml',
      'winlogbeat.yml',
    ]);
    assert.equal(existsSync(path.join(pkg, 'node_modules')), false, 'nothing installed beside it');
  });

  test('a launcher without its build says what is missing and how to build it, exit 1', async () => {
    const bare = path.join(dir, 'bare');
    mkdirSync(path.join(bare, 'bin'), { recursive: true });
    copyFileSync(path.join(clientDir, 'bin/weirctl.js'), path.join(bare, 'bin/weirctl.js'));
    const r = await run(process.execPath, [path.join(bare, 'bin/weirctl.js'), '--help'], { cwd: dir, env: {} });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `weirctl: the built CLI (${path.join(bare, 'dist/cli/weirctl.js')}) is missing: this installation is incomplete.\n` +
        'Install weirctl again from a tarball made by `npm pack` in packages/client (docs/cli.md, "Install anywhere").\n',
    );
  });

  test('in a repository without the build, a Node that cannot strip types is told how to build it', async () => {
    const repoLike = path.join(dir, 'repo-like');
    mkdirSync(path.join(repoLike, 'bin'), { recursive: true });
    mkdirSync(path.join(repoLike, 'src/cli'), { recursive: true });
    copyFileSync(path.join(clientDir, 'bin/weirctl.js'), path.join(repoLike, 'bin/weirctl.js'));
    writeFileSync(path.join(repoLike, 'src/cli/process-main.ts'), 'export {};\n');
    // Node 24 without type stripping stands for Node 20 and 22 here
    const r = await run(
      process.execPath,
      ['--no-experimental-strip-types', path.join(repoLike, 'bin/weirctl.js'), '--help'],
      { cwd: dir, env: {} },
    );
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `weirctl: the built CLI (${path.join(repoLike, 'dist/cli/weirctl.js')}) is missing, and Node ${process.versions.node} cannot run the TypeScript sources.\n` +
        'In the repository `npm run build:cli` (or `npm install`) builds it; or run weirctl with Node 24 (node_modules/.bin/node).\n',
    );
  });

  for (const binary of nodes()) {
    const version = versionOf(binary);
    test(`on Node ${version} (${binary}), outside the repository: --help, login, get rules, sigma convert, backtest`, async () => {
      // `weirctl` starts with `#!/usr/bin/env node`: this Node is the one first on the PATH
      const bin = path.join(dir, `node-${version}`);
      mkdirSync(bin, { recursive: true });
      symlinkSync(binary, path.join(bin, 'node'));
      const env = {
        PATH: `${bin}${path.delimiter}/usr/bin${path.delimiter}/bin`,
        HOME: dir,
        XDG_CONFIG_HOME: path.join(dir, `config-${version}`),
      };
      assert.equal(execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim(), version);
      const weirctl = path.join(prefix, 'bin/weirctl');
      const cli = (args: string[], input?: string) => run(weirctl, args, { cwd: dir, env, input });

      const help = await cli(['--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /^weirctl: the command line of Weir\n\nUsage: weirctl <command>/);
      assert.equal(help.stderr, '');
      const login = await cli(
        ['login', '--server', node.url, '-u', 'admin', '--password-stdin', '--insecure'],
        'admin-pw\n',
      );
      assert.equal(login.code, 0, login.stderr);
      assert.equal(login.stderr, `Logged in to ${node.url.replace(/\/$/, '')} as admin\n`);
      const rules = await cli(['get', 'rules', '-o', 'json']);
      assert.equal(rules.code, 0, rules.stderr);
      assert.deepEqual(
        (JSON.parse(rules.stdout) as { id: string; name: string }[]).map((r) => [r.id, r.name]),
        [['pkg-rule', 'Packaged']],
      );
      // the built-in Sigma mappings are found beside the built CLI
      const yml = path.join(dir, 'whoami.yml');
      writeFileSync(
        yml,
        'title: Whoami\nlogsource: {product: windows, category: process_creation}\ndetection:\n  sel:\n    Image|endswith: whoami.exe\n  condition: sel\n',
      );
      const converted = await cli(['sigma', 'convert', yml, '--mapping', 'winlogbeat']);
      assert.equal(converted.code, 0, converted.stderr);
      assert.match(converted.stdout, /winlog\.event_data\.Image = i"\*whoami\.exe"/);
      // backtest, in process: the documented rule repository (PDL, a correlation manifest, Sigma) and its expectations
      const example = path.join(repo, 'docs/examples/rule-repository');
      const backtest = await run(
        weirctl,
        ['backtest', '--rules', 'rules', '--events', 'tests/logins.ndjson', '--expect', 'tests/logins.expect.yml'],
        { cwd: example, env },
      );
      assert.equal(backtest.code, 0, backtest.stderr);
      assert.match(backtest.stdout, /\nno other rule fires \(othersMayFire: false\) +ok\n$/);
      assert.match(backtest.stderr, /\n0 of 4 expectation\(s\) failed\n$/);
    });
  }
});
