/** Writing PDL text: field paths, string literals (wildcards kept or escaped), queries. */

const BARE = /^[A-Za-z_][A-Za-z0-9_:-]*$/;
const RESERVED = new Set(['AND', 'OR', 'NOT', 'IN', 'AS', 'OUTPUT', 'true', 'false', 'null']);

function segment(name: string): string {
  return BARE.test(name) && !RESERVED.has(name) ? name : `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
}

/** A mapped path (`Event.EventData.Image`, dots separate levels) as a PDL field. */
export function pdlField(path: string): string {
  return path.split('.').map(segment).join('.');
}

/**
 * A PDL string literal. `parts` alternates text and wildcards: each string is literal text (its
 * asterisks escaped), each `null` a `*` wildcard. `caseless` writes `i"..."`.
 */
export function pdlString(parts: readonly (string | null)[], caseless: boolean): string {
  let out = caseless ? 'i"' : '"';
  for (const part of parts) {
    if (part === null) {
      out += '*';
      continue;
    }
    for (const ch of part) {
      if (ch === '\\' || ch === '"') out += `\\${ch}`;
      else if (ch === '*') out += '\\*';
      else out += ch;
    }
  }
  return `${out}"`;
}

/** A regular expression as a PDL string literal (every backslash and quote escaped, so `\*` stays `\*`). */
export function pdlRegex(pattern: string): string {
  return `"${pattern.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export const and = (parts: readonly string[]): string =>
  parts.length === 1 ? (parts[0] as string) : parts.map(group).join(' AND ');
export const or = (parts: readonly string[]): string =>
  parts.length === 1 ? (parts[0] as string) : parts.map(group).join(' OR ');
export const not = (part: string): string => `NOT ${group(part)}`;

/** Parenthesised unless it is one comparison (no top-level AND / OR). */
export function group(query: string): string {
  return isAtom(query) ? query : `(${query})`;
}

/** True when the text has no AND / OR outside quotes, backquotes and parentheses. */
function isAtom(query: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < query.length; i++) {
    const c = query[i] as string;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && c === ' ' && (query.startsWith(' AND ', i) || query.startsWith(' OR ', i))) return false;
  }
  return true;
}
