/**
 * The fixed headers the spec puts on every response (Conventions), for the engine's API and the UI
 * server alike; `Strict-Transport-Security` only on responses served over TLS. Names in lower case
 * (Node's), values exactly as the spec writes them.
 */
export const fixedHeaders = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-frame-options': 'DENY',
} as const;

/** The header the spec adds over TLS. */
export const hstsHeader = { 'strict-transport-security': 'max-age=31536000 ; includeSubDomains' } as const;
