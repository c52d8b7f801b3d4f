/**
 * The text filter (`q`) of the alert store (docs/alerts.md): the index keeps the words of every
 * alert record in a SQLite FTS5 table (tokenizer `unicode61`: runs of letters and digits, any case),
 * and a query first looks up the records holding the words of the text, then checks those rows with
 * the exact test of a scan (`record LIKE '%q%'`, `likeText`), so the answer is the scan's.
 *
 * A text is part of a record's JSON, so its words may be cut at its ends: the first word counts only
 * when the text starts with a separator (else it may be the end of a longer word: left out), the
 * last is looked up as a prefix unless the text ends with a separator. A text with a character
 * outside ASCII, or with no word left, is scanned (its words are not certain to be the tokenizer's).
 */

const word = /[A-Za-z0-9]+/g;

/** The FTS5 MATCH expression finding every record that may hold `text`, or undefined to scan. */
export function wordMatch(text: string): string | undefined {
  if (!/^[\x20-\x7e]*$/.test(text)) return undefined;
  const words = [...text.matchAll(word)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const terms: string[] = [];
  for (const w of words) {
    if (w.start === 0) continue;
    terms.push(w.end === text.length ? `"${w.word}" *` : `"${w.word}"`);
  }
  return terms.length === 0 ? undefined : [...new Set(terms)].join(' AND ');
}

/**
 * The LIKE pattern of "holds `text`, any case": `%text%` with `%`, `_` and `\` escaped (ESCAPE '\').
 * SQLite's LIKE folds the case of ASCII letters only, as its `lower()` does (no ICU): the same answer
 * as `instr(lower(record), lower(text)) > 0`, without copying each record.
 */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
