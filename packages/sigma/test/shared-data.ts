import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's shared test data (`shared/data`, next to the repository): WEIR_SHARED_DATA when
 * set, else `../shared/data` from the repository root, else the workspace's `/work/shared/data`.
 * Missing data fails the tests that need it (they are not skipped).
 */
export function sharedData(...parts: string[]): string {
  const repo = path.resolve(import.meta.dirname, '../../..');
  const candidates = [process.env.WEIR_SHARED_DATA, path.resolve(repo, '../shared/data'), '/work/shared/data'].filter(
    (c): c is string => c !== undefined,
  );
  const base = candidates.find((c) => existsSync(path.join(c, 'sigma'))) ?? (candidates[0] as string);
  return path.join(base, ...parts);
}
