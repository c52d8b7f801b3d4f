/**
 * The preview of a lookup file before it is sent, read the way the engine reads it (docs/api.md →
 * Lookups): JSON for `.json` or JSON-looking text, else CSV (RFC 4180, first line the field names,
 * unquoted plain numbers as numbers). The engine's parse on upload stays the authority: its refusal
 * is shown as it is.
 */
export type Row = Record<string, unknown>;

export function previewLookup(text: string, fileName: string): Row[] {
  const t = text.replace(/^\uFEFF/, '');
  if (t.trim() === '')
    throw new Error('the file is empty; send CSV (first line: field names) or a JSON array of objects');
  const json =
    fileName.toLowerCase().endsWith('.json') || (!fileName.toLowerCase().endsWith('.csv') && /^\s*[[{]/.test(t));
  return json ? jsonRows(t) : csvRows(t);
}

function jsonRows(text: string): Row[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`it is not valid JSON (${(err as Error).message}); send a JSON array of objects or CSV`, {
      cause: err,
    });
  }
  if (!Array.isArray(value))
    throw new Error(
      `expected a JSON array of objects, found ${value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}`,
    );
  value.forEach((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw new Error(
        `expected a JSON array of objects, but element ${i} is ${Array.isArray(row) ? 'an array' : row === null ? 'null' : `a ${typeof row}`}`,
      );
  });
  return value as Row[];
}

const numeric = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** RFC 4180 cells: `,` separated, `"` quoting, `""` a quote, quoted line breaks. */
function csvLines(text: string): { value: string; quoted: boolean }[][] {
  const lines: { value: string; quoted: boolean }[][] = [];
  let line: { value: string; quoted: boolean }[] = [];
  let cell = '';
  let quoted = false;
  let inQuotes = false;
  let lineNo = 1;
  const endCell = () => {
    line.push({ value: cell, quoted });
    cell = '';
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else {
        if (ch === '\n') lineNo++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '' && !quoted) {
      inQuotes = true;
      quoted = true;
    } else if (ch === '"') throw new Error(`it is not valid CSV: a quote inside an unquoted cell on line ${lineNo}`);
    else if (ch === ',') endCell();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endCell();
      if (!(line.length === 1 && line[0]!.value === '' && !line[0]!.quoted)) lines.push(line);
      line = [];
      lineNo++;
    } else cell += ch;
  }
  if (inQuotes) throw new Error('it is not valid CSV: a quoted cell is not closed');
  endCell();
  if (!(line.length === 1 && line[0]!.value === '' && !line[0]!.quoted)) lines.push(line);
  return lines;
}

function csvRows(text: string): Row[] {
  const [header, ...rows] = csvLines(text);
  if (!header) throw new Error('the CSV has no header line; its first line must give the field names');
  const names = header.map((c) => c.value);
  names.forEach((name, i) => {
    if (name.trim() === '') throw new Error(`field name ${i + 1} of the header line is empty`);
    if (names.indexOf(name) !== i)
      throw new Error(`the field name '${name}' appears more than once in the header line`);
  });
  return rows.map((cells, r) => {
    if (cells.length !== names.length)
      throw new Error(`it is not valid CSV: row ${r + 2} has ${cells.length} cells, the header has ${names.length}`);
    return Object.fromEntries(
      names.map((n, i) => {
        const c = cells[i]!;
        return [n, !c.quoted && numeric.test(c.value) && Number.isFinite(Number(c.value)) ? Number(c.value) : c.value];
      }),
    );
  });
}

/** The column names of rows, in first-seen order. */
export function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}
