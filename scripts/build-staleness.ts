/**
 * When a build is stale: missing, or older than the newest file under any of its sources (paths
 * relative to the repository). The UI build (ui-build.ts) and the CLI build (cli-build.ts) use it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The newest modification time under a path (0 when it does not exist). */
export function newestMtime(p: string): number {
  const full = path.join(root, p);
  if (!existsSync(full)) return 0;
  const st = statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(full).map((n) => newestMtime(path.join(p, n))));
}

/** True when `built` (an absolute path) is missing or older than a file of `sources`. */
export function buildStale(built: string, sources: readonly string[]): boolean {
  if (!existsSync(built)) return true;
  const time = statSync(built).mtimeMs;
  return sources.some((s) => newestMtime(s) > time);
}
