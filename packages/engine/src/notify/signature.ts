import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `X-Weir-Signature` header of a webhook request: `sha256=` and the hex HMAC-SHA256 of the exact
 * body bytes with the notifier's secret (docs/alerts.md, "Verifying a request").
 */
export function signature(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Whether a header is the signature of the body with the secret (compared in constant time). */
export function signatureValid(secret: string, body: Buffer | string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signature(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
