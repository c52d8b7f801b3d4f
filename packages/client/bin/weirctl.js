#!/usr/bin/env node
// weirctl: the command line of Weir (docs/cli.md). This launcher is plain JavaScript, so it starts on
// any Node: it runs the built CLI (dist/cli/weirctl.js, one file holding everything it needs; Node >= 20),
// or, in the repository on a Node that strips types (>= 24), the TypeScript sources, which are never stale.
/* global process, console */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'src/cli/process-main.ts');
const built = path.join(root, 'dist/cli/weirctl.js');

if (Number(process.versions.node.split('.')[0]) < 20) {
  console.error(`weirctl: Node ${process.versions.node} is too old; weirctl needs Node 20 or later.`);
  process.exit(1);
}

/** Newest modification time of a file or of anything under a folder. */
function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  return st.isDirectory() ? Math.max(st.mtimeMs, ...readdirSync(p).map((n) => newest(path.join(p, n)))) : st.mtimeMs;
}

if (existsSync(sources) && process.features.typescript) {
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (w.name !== 'ExperimentalWarning') console.error(w);
  });
  await (await import(pathToFileURL(sources).href)).processMain();
} else if (existsSync(built)) {
  // In the repository on an older Node: the build, which postinstall made; say so when sources changed since.
  const changed = ['src', '../sigma/src', '../sigma/mappings', '../pdl/src'].map((p) => newest(path.join(root, p)));
  if (existsSync(sources) && Math.max(...changed) > statSync(built).mtimeMs)
    console.error('weirctl: dist/cli/weirctl.js is older than the sources; `npm run build:cli` rebuilds it.');
  await import(pathToFileURL(built).href);
} else if (existsSync(sources)) {
  console.error(
    `weirctl: the built CLI (${built}) is missing, and Node ${process.versions.node} cannot run the TypeScript sources.\n` +
      'In the repository `npm run build:cli` (or `npm install`) builds it; or run weirctl with Node 24 (node_modules/.bin/node).',
  );
  process.exit(1);
} else {
  console.error(
    `weirctl: the built CLI (${built}) is missing: this installation is incomplete.\n` +
      'Install weirctl again from a tarball made by `npm pack` in packages/client (docs/cli.md, "Install anywhere").',
  );
  process.exit(1);
}
