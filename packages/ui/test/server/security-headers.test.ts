import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadUiSettings } from '../../server/ui-settings.ts';
import { startUiServer, type UiServer } from '../../server/ui-server.ts';

/**
 * The headers the UI server puts on every answer (docs/ui.md): the spec's fixed headers (Conventions),
 * HSTS over TLS, no referrer and a strict Content-Security-Policy; hashed assets are cached for a year
 * instead of `no-store`. The real server (HTTPS with its self-signed pair, and plain HTTP) serving
 * the built app; no engine is needed for the app's files.
 */
const dist = path.resolve(import.meta.dirname, '../../dist');

const csp =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; " +
  "form-action 'self'; frame-ancestors 'none'";

const always = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': csp,
};
const noStore = { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate', pragma: 'no-cache', expires: '0' };
const hsts = { 'strict-transport-security': 'max-age=31536000 ; includeSubDomains' };

const securityHeaderNames = [...Object.keys(always), ...Object.keys(noStore), ...Object.keys(hsts)];

/** The status and the security and cache headers of one answer (the others: type, length, date…). */
async function headersOf(
  ui: UiServer,
  pathname: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string> }> {
  const url = new URL(pathname, ui.url);
  if (url.protocol === 'http:') {
    const res = await fetch(url, { method });
    await res.arrayBuffer();
    return { status: res.status, headers: pick(Object.fromEntries(res.headers)) };
  }
  return new Promise((resolve, reject) => {
    request(url, { method, rejectUnauthorized: false }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, headers: pick(res.headers as Record<string, string>) }));
    })
      .once('error', reject)
      .end();
  });
}

function pick(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => securityHeaderNames.includes(name)));
}

const hashedAsset = `/assets/${readdirSync(path.join(dist, 'assets')).find((n) => /-[A-Za-z0-9_-]{8,}\.js$/.test(n))!}`;

for (const secure of [true, false]) {
  describe(`the UI server's security headers over ${secure ? 'HTTPS' : 'plain HTTP'}`, () => {
    let home: string;
    let ui: UiServer;
    before(async () => {
      home = mkdtempSync(path.join(os.tmpdir(), 'weir-ui-headers-'));
      const settings = loadUiSettings(undefined, {
        'server.host': '127.0.0.1',
        'server.port': 0,
        'server.ssl.enabled': secure,
        'weir.home': home,
      });
      ui = await startUiServer(settings, dist);
    });
    after(async () => {
      await ui.close();
      rmSync(home, { recursive: true, force: true });
    });
    const transport = secure ? hsts : {};

    test('the app (and a client-side route) carries the fixed headers, the CSP and no-store', async () => {
      for (const pathname of ['/', '/rules/r1'])
        assert.deepEqual(await headersOf(ui, pathname), {
          status: 200,
          headers: { ...always, ...noStore, ...transport },
        });
    });

    test('a hashed asset is cached for a year (no pragma, no expires), with the same fixed headers and CSP', async () => {
      assert.deepEqual(await headersOf(ui, hashedAsset), {
        status: 200,
        headers: { ...always, 'cache-control': 'public, max-age=31536000, immutable', ...transport },
      });
    });

    test('a missing asset (404) and the logout (204) carry them too', async () => {
      assert.deepEqual(await headersOf(ui, '/assets/gone-0123456789.js'), {
        status: 404,
        headers: { ...always, ...noStore, ...transport },
      });
      assert.deepEqual(await headersOf(ui, '/ui/session/logout', 'POST'), {
        status: 204,
        headers: { ...always, ...noStore, ...transport },
      });
    });
  });
}
