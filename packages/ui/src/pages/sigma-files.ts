/**
 * The Sigma files a user dropped or chose, made into the one YAML stream an import sends, with
 * which file each document came from (the answer numbers documents in that stream).
 */
export interface SigmaFile {
  /** The name shown: the path inside a dropped or chosen folder, else the file's name. */
  readonly name: string;
  readonly text: string;
}

export interface SigmaBundle {
  /** The documents of every file, in order, separated by `---`. */
  readonly yaml: string;
  /** For each document of `yaml`, the file it is from and its number in that file (from 1). */
  readonly sources: readonly { readonly file: string; readonly index: number }[];
  /** Files that hold no YAML document (empty, or comments only): named, never dropped silently. */
  readonly empty: readonly string[];
}

/** Whether a file is a Sigma rule file by its name (`.yml` or `.yaml`, any case). */
export function isSigmaFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

const separator = /^---(?:\s.*)?$/;
const documentEnd = /^\.\.\.\s*$/;
const blankOrComment = /^\s*(?:#.*)?$/;

/**
 * A file's YAML documents, split at the lines YAML starts a document with (`---` at the start of
 * a line; `...` ends one). A document of blank and comment lines only is none (YAML reads no
 * document there either). Content on a `---` line (`--- !tag`) stays with its document.
 */
export function splitDocuments(text: string): string[] {
  const docs: string[][] = [[]];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (separator.test(line)) {
      const rest = line.slice(3).trim();
      docs.push(rest === '' || rest.startsWith('#') ? [] : [rest]);
    } else if (documentEnd.test(line)) docs.push([]);
    else docs.at(-1)!.push(line);
  }
  return docs.filter((d) => !d.every((l) => blankOrComment.test(l))).map((d) => d.join('\n').trimEnd());
}

/** The files' documents as one stream, and where each came from. */
export function bundle(files: readonly SigmaFile[]): SigmaBundle {
  const parts: string[] = [];
  const sources: { file: string; index: number }[] = [];
  const empty: string[] = [];
  for (const f of files) {
    const docs = splitDocuments(f.text);
    if (docs.length === 0) empty.push(f.name);
    docs.forEach((d, i) => {
      parts.push(d);
      sources.push({ file: f.name, index: i + 1 });
    });
  }
  return { yaml: parts.join('\n---\n'), sources, empty };
}

/** `rules/a.yml`, or `rules/a.yml (document 2)` for a file with several documents. */
export function sourceLabel(bundled: SigmaBundle, document: number): string {
  const s = bundled.sources[document];
  if (s === undefined) return `document ${document}`;
  const many = bundled.sources.filter((x) => x.file === s.file).length > 1;
  return many ? `${s.file} (document ${s.index})` : s.file;
}
