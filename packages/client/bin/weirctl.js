#!/usr/bin/env node
// weirctl: the command line of Weir (docs/cli.md). Needs Node >= 24 (it runs the TypeScript sources).
/* global process, console, AbortController */
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'ExperimentalWarning') console.error(w);
});
const { run } = await import('../src/cli/main.ts');
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
});
process.exitCode = await run(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  env: process.env,
  signal: stop.signal,
});
