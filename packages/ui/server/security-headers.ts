/**
 * What the UI server sends on top of the spec's fixed headers (`fixedHeaders` and, over TLS,
 * `hstsHeader` of `@weir/contract`, the engine's too): a strict Content-Security-Policy, scripts
 * only from this origin (no inline script, no eval), no remote origin for anything, and no
 * referrer. Inline *styles* are allowed: Mantine and CodeMirror set style attributes and inject
 * their style sheets at run time (docs/ui.md).
 */
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
