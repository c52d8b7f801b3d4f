/**
 * Sigma string values: `*` (any run) and `?` (one character) are wildcards; a backslash escapes
 * `*`, `?` and itself; any other backslash is literal (as pySigma reads them).
 */
export type Piece = string | { readonly wildcard: '*' | '?' };

export const STAR: Piece = { wildcard: '*' };
export const ONE: Piece = { wildcard: '?' };

export function parseSigmaString(text: string): Piece[] {
  const pieces: Piece[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const n = text[i + 1];
      if (n === '*' || n === '?' || n === '\\') {
        current += n;
        i++;
      } else {
        current += c;
      }
    } else if (c === '*' || c === '?') {
      if (current !== '') pieces.push(current);
      current = '';
      pieces.push(c === '*' ? STAR : ONE);
    } else {
      current += c;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/** A plain text (no wildcards) as pieces. */
export const literal = (text: string): Piece[] => (text === '' ? [] : [text]);

export const hasOne = (pieces: readonly Piece[]): boolean =>
  pieces.some((p) => typeof p !== 'string' && p.wildcard === '?');

/** The text of pieces without wildcards, or undefined when there is one. */
export function plainText(pieces: readonly Piece[]): string | undefined {
  let out = '';
  for (const p of pieces) {
    if (typeof p !== 'string') return undefined;
    out += p;
  }
  return out;
}

/** Pieces as a regular expression (anchored both ends), for values with `?`. */
export function piecesToRegex(pieces: readonly Piece[]): string {
  let out = '^';
  for (const p of pieces) {
    if (typeof p !== 'string') out += p.wildcard === '*' ? '.*' : '.';
    else out += p.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
  }
  return `${out}$`;
}
