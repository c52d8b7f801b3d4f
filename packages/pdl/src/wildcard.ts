/**
 * Matching of string literals with `*` wildcards (pdl.md, `=`): each `*` matches any run of
 * characters, also empty; an asterisk written `\*` is literal. Linear-time per segment: the
 * first segment is a prefix, the last a suffix, the middle ones are found left to right.
 */
export type StringMatcher = (text: string) => boolean;

/** Splits a literal into the text between wildcards; a literal without wildcards gives one part. */
export function wildcardParts(value: string, literalStars: readonly number[]): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '*' && !literalStars.includes(i)) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

export function hasWildcard(value: string, literalStars: readonly number[]): boolean {
  for (let i = value.indexOf('*'); i !== -1; i = value.indexOf('*', i + 1)) {
    if (!literalStars.includes(i)) return true;
  }
  return false;
}

/** A matcher for the whole text (`contains` wraps the pattern in wildcards). */
export function compileWildcard(value: string, literalStars: readonly number[], contains = false): StringMatcher {
  const parts = wildcardParts(value, literalStars);
  if (contains) {
    parts.unshift('');
    parts.push('');
  }
  if (parts.length === 1) {
    const exact = parts[0] as string;
    return (text) => text === exact;
  }
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  const minLength = first.length + last.length;
  if (middle.length === 0) {
    if (first === '' && last === '') return () => true;
    if (first === '') return (text) => text.endsWith(last);
    if (last === '') return (text) => text.startsWith(first);
    return (text) => text.length >= minLength && text.startsWith(first) && text.endsWith(last);
  }
  if (middle.length === 1 && first === '' && last === '') {
    const needle = middle[0] as string;
    return (text) => text.includes(needle);
  }
  return (text) => {
    if (text.length < minLength || !text.startsWith(first) || !text.endsWith(last)) return false;
    let pos = first.length;
    const limit = text.length - last.length;
    for (let i = 0; i < middle.length; i++) {
      const part = middle[i] as string;
      const at = text.indexOf(part, pos);
      if (at === -1 || at + part.length > limit) return false;
      pos = at + part.length;
    }
    return true;
  };
}
