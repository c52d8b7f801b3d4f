import { createHash } from 'node:crypto';

/** A strong entity tag of a response body: a hash of its bytes, so every node gives the same body the same tag. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * RFC 9110 §13.1.2: does `If-None-Match` match the current entity tag? `*` matches any; otherwise
 * a comma-separated list of tags compared weakly (`W/"x"` matches `"x"`).
 */
export function ifNoneMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}
