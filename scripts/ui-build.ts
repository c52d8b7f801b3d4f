/**
 * Builds the web UI (packages/ui/dist) with Vite when its sources are newer than the build, or
 * always with `--force`. `npm install` runs it (postinstall), `npm start` runs it before starting.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/ui/dist/index.html');
const sources = [
  'packages/ui/src',
  'packages/ui/index.html',
  'packages/ui/vite.config.ts',
  'packages/ui/public',
  'packages/client/src',
  'packages/pdl/src',
  // the resource kinds, task schemas and defaults the pages and forms are built from
  'packages/contract/src',
];

function newest(p: string): number {
  const full = path.join(root, p);
  if (!existsSync(full)) return 0;
  const st = statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(full).map((n) => newest(path.join(p, n))));
}

/** True when dist is missing or older than a source file. */
export function uiBuildStale(): boolean {
  if (!existsSync(dist)) return true;
  const built = statSync(dist).mtimeMs;
  return sources.some((s) => newest(s) > built);
}

/** Runs `vite build`; throws with Vite's output when it fails. */
export function buildUi(log: (line: string) => void = console.log): void {
  log('[weir-ui] building the web UI (vite build)…');
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'packages/ui/vite.config.ts', '--logLevel', 'warn'],
    { cwd: root, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`the UI build failed:\n${r.stdout}${r.stderr}`);
  log('[weir-ui] built packages/ui/dist');
}

if (import.meta.main) {
  try {
    if (process.argv.includes('--force') || uiBuildStale()) buildUi();
    else console.log('[weir-ui] packages/ui/dist is up to date');
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
