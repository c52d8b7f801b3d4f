/**
 * The spec's fixed headers (Conventions) on every response of the UI server, and a strict
 * Content-Security-Policy: scripts only from this origin (no inline script, no eval), no remote
 * origin for anything. Inline *styles* are allowed: Mantine and CodeMirror set style attributes
 * and inject their style sheets at run time (docs/ui.md).
 */
export const fixedHeaders = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-frame-options': 'DENY',
} as const;

export const hsts = { 'strict-transport-security': 'max-age=31536000 ; includeSubDomains' } as const;

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed static assets: a long-lived cache instead of `no-store`. */
export const immutableCache = { 'cache-control': 'public, max-age=31536000, immutable' } as const;

export const referrerPolicy = { 'referrer-policy': 'no-referrer' } as const;
