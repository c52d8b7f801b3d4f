/**
 * The text formats PARSE_KV and PARSE_CSV share with the PDL stages `parse_kv` and `parse_csv`
 * (pdl.md, "parse_kv and parse_csv"). The same algorithm as packages/pdl/src/textParsers.ts,
 * which @weir/pdl does not export; test/tasks/text-formats.test.ts runs both on the same inputs
 * so they cannot drift apart.
 */

function isSeparator(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44; // space \t \n \r ,
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Reads `key<delim>value` pairs separated by whitespace or commas. Blanks around the delimiter
 * are allowed; a value may be double-quoted (`\"` and `\\` inside are a quote and a backslash).
 * Words without a delimiter are skipped. A later pair with the same key wins.
 */
export function parseKeyValues(text: string, delimiter: string, emit: (key: string, value: string) => void): void {
  const n = text.length;
  const d0 = delimiter.charCodeAt(0);
  const single = delimiter.length === 1;
  const atDelimiter = (at: number): boolean => text.charCodeAt(at) === d0 && (single || text.startsWith(delimiter, at));
  let i = 0;
  while (i < n) {
    while (i < n && isSeparator(text.charCodeAt(i))) i++;
    if (i >= n) return;
    const keyStart = i;
    while (i < n && !isSeparator(text.charCodeAt(i)) && !atDelimiter(i)) i++;
    const keyEnd = i;
    let j = i;
    while (j < n && isBlank(text.charCodeAt(j))) j++;
    if (j >= n || !atDelimiter(j)) {
      i = j;
      continue;
    }
    j += delimiter.length;
    if (keyEnd === keyStart) {
      i = j;
      continue;
    }
    const key = text.slice(keyStart, keyEnd);
    while (j < n && isBlank(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 34) {
      // quoted value; slices between escapes
      let value = '';
      let from = j + 1;
      let k = from;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (c === 34) break;
        if (c === 92) {
          const next = text.charCodeAt(k + 1);
          if (next === 34 || next === 92) {
            value += text.slice(from, k);
            from = k + 1;
            k += 2;
            continue;
          }
        }
        k++;
      }
      emit(key, value + text.slice(from, k));
      i = k + 1;
    } else {
      let k = j;
      while (k < n && !isSeparator(text.charCodeAt(k))) k++;
      emit(key, text.slice(j, k));
      i = k;
    }
  }
}

/** Splits one CSV line on the delimiter, respecting double quotes (`""` is a quote inside quotes); cells are trimmed. */
export function splitCsv(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  const n = text.length;
  if (!text.includes('"')) {
    // fast path: no quoting anywhere
    let from = 0;
    for (;;) {
      const at = text.indexOf(delimiter, from);
      if (at < 0) break;
      cells.push(text.slice(from, at).trim());
      from = at + delimiter.length;
    }
    cells.push(text.slice(from, n).trim());
    return cells;
  }
  let current = '';
  let quoted = false;
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
