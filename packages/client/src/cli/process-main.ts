import { run } from './main.ts';

/**
 * weirctl as a process: arguments, standard streams, exit code, Ctrl-C. The entry of the built CLI
 * (dist/cli/weirctl.js, scripts/cli-build.ts) and of the sources (bin/weirctl.js on Node ≥ 24).
 */
export async function processMain(): Promise<void> {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
  process.exitCode = await run(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    env: process.env,
    signal: stop.signal,
  });
}
