/** Plain characters: a letter, digit, space or punctuation that is no regex operator. */
const PLAIN = /^[A-Za-z0-9 _\-,;:'"<>=!@#%&~/`]$/;

const isPlain = (ch: string | undefined): boolean => ch !== undefined && PLAIN.test(ch);

/**
 * Why a (valid) regular expression can match no text, or undefined when it may match. Sound but
 * narrow: only the top level of a pattern without `|` and without the multi-line flag is read,
 * where `$` (the end of the text) followed by a required character, or a required character
 * followed by `^` (the start of the text), can never match.
 */
export function neverMatches(pattern: string): string | undefined {
  if (/\(\?[A-Za-z-]*m/.test(pattern)) return undefined;
  let depth = 0;
  let inClass = false;
  const top: { ch: string; index: number; escaped: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      if (!inClass && depth === 0) top.push({ ch: pattern[i + 1] ?? '', index: i, escaped: true });
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      if (depth === 0) top.push({ ch: '[', index: i, escaped: false });
    } else if (ch === '(') {
      if (depth === 0) top.push({ ch, index: i, escaped: false });
      depth++;
    } else if (ch === ')') {
      depth--;
    } else if (depth === 0) {
      if (ch === '|') return undefined;
      top.push({ ch, index: i, escaped: false });
    }
  }
  for (let k = 0; k < top.length; k++) {
    const t = top[k] as (typeof top)[number];
    if (t.escaped) continue;
    const next = top[k + 1];
    const after = top[k + 2];
    if (
      t.ch === '$' &&
      next !== undefined &&
      !next.escaped &&
      isPlain(next.ch) &&
      !(after !== undefined && !after.escaped && (after.ch === '?' || after.ch === '*' || after.ch === '{'))
    )
      return `'$' (the end of the text) at column ${t.index + 1} is followed by '${next.ch}', which must come after it`;
    const before = top[k - 1];
    if (t.ch === '^' && k > 0 && before !== undefined && !before.escaped && isPlain(before.ch))
      return `'^' (the start of the text) at column ${t.index + 1} comes after '${before.ch}', which must come before it`;
  }
  return undefined;
}
