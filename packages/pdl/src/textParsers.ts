/** The text formats of parse_kv and parse_csv (pdl.md, "parse_kv and parse_csv"). */

function isSeparator(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ',';
}

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/**
 * Reads `key<delim>value` pairs separated by whitespace or commas. Blanks around the delimiter
 * are allowed; a value may be double-quoted (`\"` inside is a quote). Words without a delimiter
 * are skipped. A later pair with the same key wins. `emit(target, key, value)` is called per pair
 * (a precompiled function plus its target, so parsing needs no closure per event).
 */
export function parseKeyValues<T>(
  text: string,
  delimiter: string,
  emit: (target: T, key: string, value: string) => void,
  target: T,
): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSeparator(text[i])) i++;
    if (i >= n) return;
    const keyStart = i;
    while (i < n && !isSeparator(text[i]) && !text.startsWith(delimiter, i)) i++;
    const key = text.slice(keyStart, i);
    let j = i;
    while (j < n && isBlank(text[j])) j++;
    if (!text.startsWith(delimiter, j)) {
      i = j;
      continue;
    }
    j += delimiter.length;
    if (key === '') {
      i = j;
      continue;
    }
    while (j < n && isBlank(text[j])) j++;
    if (text[j] === '"') {
      let value = '';
      let k = j + 1;
      while (k < n && text[k] !== '"') {
        if (text[k] === '\\' && (text[k + 1] === '"' || text[k + 1] === '\\')) {
          value += text[k + 1];
          k += 2;
        } else {
          value += text[k];
          k++;
        }
      }
      emit(target, key, value);
      i = k + 1;
    } else {
      let k = j;
      while (k < n && !isSeparator(text[k])) k++;
      emit(target, key, text.slice(j, k));
      i = k;
    }
  }
}

/** Splits one CSV line on the delimiter, respecting double quotes (`""` is a quote inside quotes); cells are trimmed. */
export function splitCsv(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          current += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        current += c;
      }
      i++;
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (text.startsWith(delimiter, i)) {
      cells.push(current.trim());
      current = '';
      i += delimiter.length;
    } else {
      current += c;
      i++;
    }
  }
  cells.push(current.trim());
  return cells;
}
