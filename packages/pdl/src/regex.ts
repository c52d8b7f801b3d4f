import { RE2JS } from 're2js';

/**
 * A user-supplied regular expression, compiled once with RE2 semantics (linear time in the
 * input, no backtracking), so neither a rule nor a test request can hang the stream
 * (pdl.md, "Query stage"). See README.md for why re2js and not native RegExp.
 */
export interface UserRegex {
  readonly source: string;
  /** Names of the named groups `(?<name>...)`, in pattern order. */
  readonly groupNames: readonly string[];
  /** Whether the pattern matches anywhere in the text (search, not full match). */
  test(text: string): boolean;
  /** The named groups of the first match (unmatched groups absent), or null. */
  namedGroups(text: string): Record<string, string> | null;
  /** Replaces every match; the replacement may use `$1`, `$<name>` and `$$`. */
  replaceAll(text: string, replacement: string): string;
}

export class UserRegexError extends Error {
  /** The regex engine's explanation, e.g. `missing closing ): \`(a\``. */
  readonly reason: string;
  constructor(pattern: string, reason: string) {
    super(`invalid regular expression "${pattern}": ${reason}`);
    this.name = 'UserRegexError';
    this.reason = reason;
  }
}

/**
 * Compiles a user regular expression (RE2 syntax, which also accepts `(?i)` and `(?<name>...)`).
 * Throws UserRegexError with the engine's reason when the pattern is invalid or unsupported
 * (look-arounds and back-references are not supported: they cannot run in linear time).
 */
export function compileUserRegex(pattern: string): UserRegex {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserRegexError(pattern, message.replace(/^error parsing regexp: /, ''));
  }
  const literal = literalSearch(pattern);
  const groups = re.namedGroups();
  const groupNames = Object.keys(groups).sort((a, b) => (groups[a] ?? 0) - (groups[b] ?? 0));
  return {
    source: pattern,
    groupNames,
    test: literal === null ? (text) => re.test(text) : (text) => literal(text) ?? re.test(text),
    namedGroups(text) {
      const match = re.exec(text);
      if (match === null) return null;
      const out: Record<string, string> = {};
      const found = (match as unknown as { groups?: Record<string, string | undefined> }).groups;
      if (found !== undefined) {
        for (const name of groupNames) {
          const value = found[name];
          if (value !== undefined) out[name] = value;
        }
      }
      return out;
    },
    replaceAll: (text, replacement) => re.matcher(text).replaceAll(replacement),
  };
}

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/** Anything but printable ASCII and common whitespace (other control characters also go to RE2). */
const NON_ASCII = /[^\t\n\r -~]/;

/**
 * A pattern that is plain text (optionally `(?i)` with ASCII text) is searched with
 * String.includes, which gives the same answer as RE2 many times faster. Returns null for any
 * other pattern; the search itself returns undefined when it cannot answer exactly (a
 * case-insensitive search in non-ASCII text, where Unicode case folding differs), and RE2 decides.
 */
export function literalSearch(pattern: string): ((text: string) => boolean | undefined) | null {
  let ignoreCase = false;
  let i = 0;
  if (pattern.startsWith('(?i)')) {
    ignoreCase = true;
    i = 4;
  }
  let needle = '';
  for (; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return null;
      needle += next;
      i++;
    } else if (META.has(ch)) {
      return null;
    } else {
      needle += ch;
    }
  }
  if (!ignoreCase) return (text) => text.includes(needle);
  // Case folding beyond ASCII differs between engines: leave those to RE2.
  if (!/^[\x20-\x7e]*$/.test(needle)) return null;
  const lower = needle.toLowerCase();
  return (text) => (NON_ASCII.test(text) ? undefined : text.toLowerCase().includes(lower));
}
