/**
 * Builds weirctl as one JavaScript file that runs on Node 20 and later, without the repository:
 * packages/client/dist/cli/weirctl.js (the CLI with @weir/sigma, @weir/pdl, yaml and re2js bundled
 * by Rolldown, Vite's bundler) and dist/mappings/ (Sigma's built-in mappings, which the converter
 * reads beside it). `npm install` runs it (postinstall) when the sources are newer than the build,
 * `npm pack` in packages/client always (prepack); `npm run build:cli` by hand.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildStale } from './build-staleness.ts';
import { rolldown } from 'rolldown';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/client/dist');
const bundle = path.join(dist, 'cli/weirctl.js');
const sources = [
  'packages/client/src',
  'packages/contract/src',
  'packages/sigma/src',
  'packages/sigma/mappings',
  'packages/pdl/src',
];
/** The oldest Node the built CLI supports (README: any recent version). */
export const cliNodeTarget = 'node20';

/** True when the build is missing or older than a source file. */
export function cliBuildStale(): boolean {
  return buildStale(bundle, sources);
}

export async function buildCli(log: (line: string) => void = console.log): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  const build = await rolldown({
    input: path.join(root, 'packages/client/src/cli/bundle-entry.ts'),
    platform: 'node',
    transform: { target: cliNodeTarget },
    logLevel: 'warn',
  });
  try {
    await build.write({
      file: bundle,
      format: 'esm',
      banner: '// weirctl, built by scripts/cli-build.ts from packages/client/src/cli (docs/cli.md)',
    });
  } finally {
    await build.close();
  }
  // @weir/sigma finds its built-in mappings at ../mappings/ from its module: from dist/cli/, dist/mappings/.
  mkdirSync(path.join(dist, 'mappings'), { recursive: true });
  cpSync(path.join(root, 'packages/sigma/mappings'), path.join(dist, 'mappings'), { recursive: true });
  log(`[weirctl] built ${path.relative(root, bundle)} (${cliNodeTarget})`);
}

if (import.meta.main) {
  try {
    if (process.argv.includes('--force') || cliBuildStale()) await buildCli();
    else console.log('[weirctl] packages/client/dist is up to date');
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
