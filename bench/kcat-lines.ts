import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Every record of a topic as kcat prints it with `format` (one line each, e.g. `%k %T\n`), read to the end. */
export function kcatLines(bootstrap: string, topic: string, format: string): string[] {
  const result = spawnSync('kcat', ['-b', bootstrap, '-C', '-t', topic, '-e', '-q', '-f', format], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`kcat ${topic}: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

/**
 * The same lines read as kcat prints them, one at a time (kcatLines holds the whole output in one
 * string: at most 512 MiB, which the alerts of 300,000 SigmaHQ events pass).
 */
export async function* kcatLineStream(bootstrap: string, topic: string, format: string): AsyncGenerator<string> {
  const child = spawn('kcat', ['-b', bootstrap, '-C', '-t', topic, '-e', '-q', '-f', format], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) if (line) yield line;
  const status = await closed;
  if (status !== 0) throw new Error(`kcat ${topic}: ${stderr}`);
}
