/**
 * Weir's patch of the Kafka client (patches/README.md) as tests see it: the patch file, the
 * installed client, and a throwaway app in a temporary folder holding a copy of the client's files
 * the patch touches, in which patch-package runs exactly as `postinstall` runs it. No network.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../../../..');
const client = '@platformatic/kafka';
const requireFromRoot = createRequire(path.join(root, 'package.json'));

/** The installed client's folder, resolved as the engine resolves it. */
export const installedClient = path.resolve(
  path.dirname(createRequire(path.join(root, 'packages/engine/package.json')).resolve(client)),
  '..',
);

/** The client's patch file in patches/ (exactly one) and the version in its name. */
export function clientPatch(): { file: string; version: string } {
  const names = readdirSync(path.join(root, 'patches')).filter((n) => n.startsWith('@platformatic+kafka+'));
  if (names.length !== 1) throw new Error(`patches/ holds ${names.length} patches of ${client}: ${names.join(', ')}`);
  const name = names[0]!;
  const version = /^@platformatic\+kafka\+(.+)\.patch$/.exec(name)?.[1];
  if (version === undefined) throw new Error(`patches/${name}: not a patch-package file name`);
  return { file: path.join(root, 'patches', name), version };
}

/** The client's files the patch changes or adds, relative to the client's folder. */
export function patchedFiles(): string[] {
  const text = readFileSync(clientPatch().file, 'utf8');
  return [...text.matchAll(/^diff --git a\/node_modules\/@platformatic\/kafka\/(\S+) /gm)].map((m) => m[1]!);
}

/** The `patch-package` arguments of a package.json's `postinstall` (`packageDir` relative to the root). */
export function postinstallPatchArgs(packageDir = '.'): string[] {
  const file = path.join(root, packageDir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { scripts?: { postinstall?: string } };
  const step = (pkg.scripts?.postinstall ?? '')
    .split('&&')
    .map((s) => s.trim().split(/\s+/))
    .find((words) => words[0] === 'patch-package');
  if (!step) throw new Error(`${file}: postinstall does not run patch-package`);
  return step.slice(1);
}

export interface PatchRun {
  readonly status: number | null;
  readonly output: string;
}

/** A temporary app with `node_modules/@platformatic/kafka` (the installed client's package.json and patched files) and patches/. */
export class ClientPatchApp {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'weir-client-patch-'));
  readonly client = path.join(this.dir, 'node_modules', client);

  constructor() {
    writeFileSync(
      path.join(this.dir, 'package.json'),
      JSON.stringify({ name: 'client-patch-app', private: true, dependencies: { [client]: clientPatch().version } }),
    );
    cpSync(path.join(root, 'patches'), path.join(this.dir, 'patches'), { recursive: true });
    mkdirSync(this.client, { recursive: true });
    cpSync(path.join(installedClient, 'package.json'), path.join(this.client, 'package.json'));
    for (const file of patchedFiles()) {
      const from = path.join(installedClient, file);
      if (!existsSync(from)) continue;
      mkdirSync(path.dirname(path.join(this.client, file)), { recursive: true });
      cpSync(from, path.join(this.client, file));
    }
  }

  /** patch-package with `args`, in this app, without the CI variables that would make it strict on its own. */
  patchPackage(args: readonly string[]): PatchRun {
    const r = spawnSync(process.execPath, [requireFromRoot.resolve('patch-package/index.js'), ...args], {
      cwd: this.dir,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  }

  /** Takes the patch out again: the client as published. Throws when it does not come out cleanly. */
  unpatch(): void {
    const r = this.patchPackage(['--reverse', '--error-on-fail']);
    if (r.status !== 0) throw new Error(`patch-package --reverse failed:\n${r.output}`);
  }

  read(file: string): string {
    return readFileSync(path.join(this.client, file), 'utf8');
  }

  has(file: string): boolean {
    return existsSync(path.join(this.client, file));
  }

  write(file: string, text: string): void {
    writeFileSync(path.join(this.client, file), text);
  }

  setVersion(version: string): void {
    const pkg = JSON.parse(this.read('package.json')) as Record<string, unknown>;
    this.write('package.json', JSON.stringify({ ...pkg, version }, null, 2));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
