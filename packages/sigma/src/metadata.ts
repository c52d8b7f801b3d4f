/** What Weir keeps of a Sigma document's metadata, and how it becomes a rule's description and annotations. */
export interface SigmaMetadata {
  readonly id: string | null;
  readonly name: string | null;
  readonly title: string;
  readonly description: string;
  readonly author: string | null;
  readonly references: readonly string[];
  readonly level: string | null;
  readonly status: string | null;
  readonly tags: readonly string[];
  readonly license: string | null;
  readonly date: string | null;
  readonly modified: string | null;
  readonly falsepositives: readonly string[];
}

const text = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v instanceof Date
      ? v.toISOString().slice(0, 10)
      : typeof v === 'number'
        ? String(v)
        : null;
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(text).filter((x): x is string => x !== null) : text(v) === null ? [] : [text(v) as string];

export function readMetadata(doc: Record<string, unknown>, defaultLicense: string | null): SigmaMetadata {
  return {
    id: text(doc.id),
    name: text(doc.name),
    title: text(doc.title) ?? '',
    description: text(doc.description) ?? '',
    author: text(doc.author),
    references: list(doc.references),
    level: text(doc.level),
    status: text(doc.status),
    tags: list(doc.tags),
    license: text(doc.license) ?? defaultLicense,
    date: text(doc.date),
    modified: text(doc.modified),
    falsepositives: list(doc.falsepositives),
  };
}

/**
 * Annotations: ATT&CK technique, group and software ids from `attack.*` tags (`attack.t1059.001` →
 * `T1059.001`), every other tag as written, then `sigma.<key>=<value>` for the id, level, status,
 * author, license and each reference.
 */
export function annotations(meta: SigmaMetadata): string[] {
  const out: string[] = [];
  for (const tag of meta.tags) {
    const m = /^attack\.([tgs]\d{4}(?:\.\d{3})?)$/i.exec(tag);
    out.push(m !== null ? (m[1] as string).toUpperCase() : tag);
  }
  const add = (key: string, value: string | null): void => {
    if (value !== null && value !== '') out.push(`sigma.${key}=${value}`);
  };
  add('id', meta.id);
  add('level', meta.level);
  add('status', meta.status);
  add('author', meta.author);
  add('license', meta.license);
  for (const r of meta.references) add('reference', r);
  return [...new Set(out)];
}

/** The rule's description: Sigma's, then the attribution (title, id, author, license, references). */
export function describe(meta: SigmaMetadata): string {
  const lines = [meta.description.trim()];
  const by = meta.author === null ? '' : ` by ${meta.author}`;
  const license = meta.license === null ? '' : ` (license: ${meta.license})`;
  lines.push(`Sigma rule "${meta.title}"${meta.id === null ? '' : ` ${meta.id}`}${by}${license}.`);
  if (meta.references.length > 0) lines.push(`References: ${meta.references.join(' ')}`);
  return lines.filter((l) => l !== '').join('\n');
}
