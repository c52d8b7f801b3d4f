/** The headers the spec puts on every response (Conventions); HSTS only over TLS. */
export const fixedHeaders = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-frame-options': 'DENY',
} as const;

export const hstsHeader = { 'strict-transport-security': 'max-age=31536000 ; includeSubDomains' } as const;
