/**
 * Builds the web UI (packages/ui/dist) with Vite when its sources are newer than the build, or
 * always with `--force`. `npm install` runs it (postinstall), `npm start` runs it before starting.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildStale } from './build-staleness.ts';

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

/** True when dist is missing or older than a source file. */
export function uiBuildStale(): boolean {
  return buildStale(dist, sources);
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
