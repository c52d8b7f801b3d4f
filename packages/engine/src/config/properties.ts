/**
 * Parses Java-style .properties text: `key=value` or `key: value` lines, `#`/`!` comments,
 * backslash line continuations. Returns the entries in file order with their line numbers, so that
 * errors can say where a bad value was written.
 */
export interface PropertyEntry {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

export function parseProperties(text: string): PropertyEntry[] {
  const entries: PropertyEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let line = lines[i]!.trimStart();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    // the pieces are joined once: re-testing and copying the growing line for every piece took quadratic time
    const parts: string[] = [];
    while (continues(line) && i + 1 < lines.length) {
      parts.push(line.slice(0, -1));
      line = lines[++i]!.trimStart();
    }
    if (parts.length > 0) {
      parts.push(line);
      line = parts.join('');
    }
    const match = /^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$/.exec(line);
    const key = match ? match[1]! : line;
    const value = match ? match[2]! : '';
    entries.push({ key: unescape(key), value: unescape(value.trimEnd()), line: startLine });
  }
  return entries;
}

/** True when the line ends with an odd number of backslashes (the last one continues the line). */
function continues(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line.charCodeAt(i) === 0x5c; i--) n++;
  return n % 2 === 1;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c;
  });
}
