/**
 * Issue 20: the domain throws coded errors (core/errors.ts `DomainError`) and only the HTTP layer
 * builds API answers. `apiError(` may appear in routes/, http/ and node/ (and core/errors.ts, which
 * defines it) and nowhere else in packages/engine/src; http/error-map.ts maps domain errors to the
 * API catalog.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const src = path.resolve(import.meta.dirname, '../../src');
const httpLayer = ['routes', 'http', 'node'];
const definedIn = 'core/errors.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The `apiError(` calls of a file, as `path:line`. */
function apiErrorCalls(file: string): string[] {
  const relative = path.relative(src, file).split(path.sep).join('/');
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (/\bapiError\(/.test(line) ? [`${relative}:${i + 1}`] : []));
}

test('apiError( is called in the HTTP layer only (routes/, http/, node/)', () => {
  const outside = sourceFiles(src)
    .filter((file) => {
      const relative = path.relative(src, file).split(path.sep).join('/');
      return relative !== definedIn && !httpLayer.includes(relative.split('/')[0]!);
    })
    .flatMap(apiErrorCalls);
  assert.deepEqual(outside, [], 'throw domainError(…) (core/errors.ts) here; http/error-map.ts answers it');
});

test('the check sees a call: the HTTP layer has some', () => {
  const inLayer = sourceFiles(path.join(src, 'routes')).flatMap(apiErrorCalls);
  assert.ok(inLayer.length > 0);
});
