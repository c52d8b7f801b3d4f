import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly brotli: Buffer | undefined;
  readonly type: string;
  /** Content-hashed file name (Vite's `assets/name-HASH.ext`): cached for a year. */
  readonly immutable: boolean;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};
const compressible = new Set(['.html', '.js', '.css', '.svg', '.json', '.map', '.txt']);

/** The built app (packages/ui/dist) read once into memory, compressed once. */
export function loadAssets(dist: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        walk(full);
        continue;
      }
      const rel = `/${path.relative(dist, full).split(path.sep).join('/')}`;
      const ext = path.extname(name);
      const body = readFileSync(full);
      const squeeze = compressible.has(ext) && body.length > 1024;
      assets.set(rel, {
        body,
        gzip: squeeze ? gzipSync(body, { level: 6 }) : undefined,
        brotli: squeeze ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }) : undefined,
        type: types[ext] ?? 'application/octet-stream',
        immutable: rel.startsWith('/assets/') && /-[A-Za-z0-9_-]{8,}\.\w+$/.test(name),
      });
    }
  };
  walk(dist);
  if (!assets.has('/index.html'))
    throw new Error(`${dist} holds no index.html: build the UI with \`npm run build:ui\``);
  return assets;
}
