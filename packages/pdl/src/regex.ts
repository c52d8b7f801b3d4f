import { RE2JS } from 're2js';
import { PdlError } from './errors.ts';

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

export class UserRegexError extends PdlError {
  readonly code = 'USER_REGEX';
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
  const java = javaOnlyConstruct(pattern);
  if (java !== null) throw new UserRegexError(pattern, java);
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserRegexError(pattern, message.replace(/^error parsing regexp: /, ''));
  }
  const literal = literalSearch(pattern);
  const required = literal === null ? requiredLiteralSearch(pattern) : null;
  const groups = re.namedGroups();
  const groupNames = Object.keys(groups).sort((a, b) => (groups[a] ?? 0) - (groups[b] ?? 0));
  return {
    source: pattern,
    groupNames,
    test:
      literal !== null
        ? (text) => literal(text) ?? re.test(text)
        : required !== null
          ? (text) => required(text) !== false && re.test(text)
          : (text) => re.test(text),
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

/** The start of a non-capturing group, optionally with flags scoped to it: `(?:`, `(?i:`, `(?-s:`. */
const GROUP_WITH_FLAGS = /^\(\?[A-Za-z-]*:/;

/** Escapes that match no literal character of their own (classes, assertions); any other letter or digit escape stops the search. */
const NON_LITERAL_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'A', 'z']);

/**
 * A text that every match of the pattern contains, or null: the longest run of literal ASCII
 * characters at the top level, outside groups, classes and repeated or optional parts. Null for a
 * top-level `|`, flags other than a leading `(?i)` (they would change case rules midway), `\Q`,
 * escapes that stand for other characters (`\x41`, `\pL`, octal) and anything unbalanced.
 */
export function requiredLiteral(pattern: string): { readonly text: string; readonly ignoreCase: boolean } | null {
  let i = 0;
  let ignoreCase = false;
  if (pattern.startsWith('(?i)')) {
    ignoreCase = true;
    i = 4;
  }
  let best = '';
  let run = '';
  const end = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    switch (ch) {
      case '|':
      case ')':
        return null;
      case '(': {
        // a group is skipped whole: a named group, `(?:…)` or `(?flags:…)` (flags inside a group stay
        // in it); `(?flags)` would change the rest of the pattern
        if (
          pattern[i + 1] === '?' &&
          pattern[i + 2] !== '<' &&
          !(pattern[i + 2] === 'P' && pattern[i + 3] === '<') &&
          !GROUP_WITH_FLAGS.test(pattern.slice(i, i + 12))
        )
          return null;
        end();
        const close = skipGroup(pattern, i);
        if (close < 0) return null;
        i = close + 1;
        continue;
      }
      case '[': {
        end();
        const close = skipClass(pattern, i);
        if (close < 0) return null;
        i = close + 1;
        continue;
      }
      case '?':
      case '*':
      case '{': {
        // the character before is optional or repeated a counted number of times: not required as is
        run = run.slice(0, -1);
        end();
        if (ch === '{') {
          const close = pattern.indexOf('}', i);
          if (close < 0) return null;
          i = close + 1;
        } else {
          i++;
        }
        continue;
      }
      case '\\': {
        const next = pattern[i + 1];
        if (next === undefined) return null;
        if (/[A-Za-z0-9]/.test(next)) {
          if (!NON_LITERAL_ESCAPES.has(next)) return null;
          end();
        } else if (next.charCodeAt(0) < 0x80) {
          run += next;
        } else {
          end();
        }
        i += 2;
        continue;
      }
      default:
        // `+` ends a run after its character; `^ $ .` and non-ASCII characters are no literal text
        if (
          ch === '+' ||
          ch === '^' ||
          ch === '$' ||
          ch === '.' ||
          ch === ']' ||
          ch === '}' ||
          ch.charCodeAt(0) >= 0x80
        ) {
          end();
        } else {
          run += ch;
        }
        i++;
    }
  }
  end();
  return best === '' ? null : { text: best, ignoreCase };
}

/** The index of the `)` closing the group opened at `start`, or -1. */
function skipGroup(pattern: string, start: number): number {
  let depth = 0;
  for (let i = start; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '[') {
      i = skipClass(pattern, i);
      if (i < 0) return -1;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The index of the `]` closing the class opened at `start` (`[]a]`, `[^]a]`, `[[:alpha:]]`), or -1. */
function skipClass(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (ch === ']') {
      return i;
    }
  }
  return -1;
}

/**
 * A quick rejection before RE2: false when the text lacks the pattern's required literal (then
 * no match is possible), otherwise undefined (RE2 decides). Case-insensitive literals are
 * compared in ASCII texts only, where folding is plain; other texts go to RE2.
 */
function requiredLiteralSearch(pattern: string): ((text: string) => false | undefined) | null {
  const required = requiredLiteral(pattern);
  if (required === null) return null;
  const needle = required.text;
  if (!required.ignoreCase) return (text) => (text.includes(needle) ? undefined : false);
  const lower = needle.toLowerCase();
  return (text) => (NON_ASCII.test(text) || text.toLowerCase().includes(lower) ? undefined : false);
}

/**
 * The first construct of Java's regex dialect (the original product's) that needs backtracking,
 * which the linear-time engine cannot run: look-around, back-reference, possessive quantifier,
 * atomic group. Returns why, naming the construct and its 1-based column, or null.
 */
export function javaOnlyConstruct(pattern: string): string | null {
  const why = (construct: string, text: string, index: number, fix: string) =>
    `${construct} '${text}' at column ${index + 1} of the regular expression: Java regex syntax that needs backtracking, which Weir does not run (regular expressions run in linear time, RE2 syntax, so that no event can stall the stream); ${fix}`;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(n)) return why('back-reference', `\\${n}`, i, "repeat the group's pattern instead");
      if (!inClass && n === 'k' && pattern[i + 2] === '<')
        return why(
          'back-reference',
          pattern.slice(i, pattern.indexOf('>', i) + 1 || i + 3),
          i,
          "repeat the group's pattern instead",
        );
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const two = pattern.slice(i + 2, i + 4);
      if (two.startsWith('=') || two.startsWith('!'))
        return why(
          'look-ahead',
          `(?${two[0]}`,
          i,
          'drop it and match the text itself, or test the condition with a separate query',
        );
      if (two === '<=' || two === '<!')
        return why(
          'look-behind',
          `(?${two}`,
          i,
          'drop it and match the text itself, or test the condition with a separate query',
        );
      if (two.startsWith('>')) return why('atomic group', '(?>', i, 'use a plain group (?:...)');
    }
    if ((c === '*' || c === '+' || c === '?' || c === '}') && pattern[i + 1] === '+') {
      return why('possessive quantifier', `${c}+`, i, `write '${c}' instead of '${c}+'`);
    }
  }
  return null;
}
