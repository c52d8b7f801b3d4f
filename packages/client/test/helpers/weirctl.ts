import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** The real command, bin/weirctl.js, as a child process (the integration tests' way to run weirctl). */
export const bin = path.resolve(import.meta.dirname, '../../bin/weirctl.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs weirctl with its config in `configHome` (XDG_CONFIG_HOME), `input` on stdin; no WEIR_PASSWORD. */
export function weirctl(args: string[], options: { configHome: string; input?: string; cwd?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? os.tmpdir(),
      env: { ...process.env, XDG_CONFIG_HOME: options.configHome, WEIR_PASSWORD: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
