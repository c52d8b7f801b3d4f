import { spawnSync } from 'node:child_process';

/** Every record of a topic as kcat prints it with `format` (one line each, e.g. `%k %T\n`), read to the end. */
export function kcatLines(bootstrap: string, topic: string, format: string): string[] {
  const result = spawnSync('kcat', ['-b', bootstrap, '-C', '-t', topic, '-e', '-q', '-f', format], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`kcat ${topic}: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}
