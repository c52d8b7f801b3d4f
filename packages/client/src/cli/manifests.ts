import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UsageError } from './errors.ts';
import { kindByName, kinds, type KindInfo } from './kinds.ts';

/** One resource to apply: `{kind: Rule, spec: {...}}` in a file. */
export interface Manifest {
  readonly kind: KindInfo;
  readonly spec: Record<string, unknown>;
  /** The record's id (rule id, task number, topic name...). */
  readonly id: string | number;
  /** `file`, `file#2` (the second YAML document) or `file[3]` (a JSON array's element): for messages. */
  readonly where: string;
}

const manifestExtensions = ['.yaml', '.yml', '.json'];

/**
 * The files of command-line arguments: a file as given, a folder's files with one of `extensions`
 * (recursively, sorted; `skipHidden`: not the entries whose names start with a dot). A path that does
 * not exist is a UsageError, its text after `label` (`--rules `, `lint: `).
 */
export function filesOf(
  targets: readonly string[],
  extensions: readonly string[],
  options: { label?: string; skipHidden?: boolean } = {},
): string[] {
  const out: string[] = [];
  const walk = (p: string, explicit: boolean): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`${options.label ?? ''}${p}: no such file or folder`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort())
        if (!(options.skipHidden && name.startsWith('.'))) walk(path.join(p, name), false);
    } else if (explicit || extensions.includes(path.extname(p).toLowerCase())) out.push(p);
  };
  for (const t of targets) walk(t, true);
  return out;
}

/** The files of `-f` arguments: a file as given, a folder's .yaml/.yml/.json files (recursively, sorted). */
export function manifestFiles(targets: readonly string[]): string[] {
  return filesOf(targets, manifestExtensions);
}

/** Every manifest of the files, checked (kind, spec, id) before anything is sent. */
export function readManifests(files: readonly string[]): Manifest[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
    }
    return parseManifests(text, file === '-' ? 'stdin' : file);
  });
}

/** JSON (an object or an array of them) or YAML (one or several `---` documents, each an object or a list). */
export function parseManifests(text: string, source: string): Manifest[] {
  const out: Manifest[] = [];
  if (/^\s*[[{]/.test(text) && source.toLowerCase().endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${source}: not valid JSON: ${(err as Error).message}`);
    }
    collect(value, source, out);
    return out;
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return out; // an empty file
  docs.forEach((doc, i) => {
    const where = docs.length > 1 ? `${source}#${i + 1}` : source;
    if (doc.errors.length) {
      const e = doc.errors[0]!;
      const pos = e.linePos?.[0];
      throw new UsageError(
        `${source}${pos ? `:${pos.line}:${pos.col}` : ''}: not valid YAML: ${e.message.split('\n')[0]}`,
      );
    }
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return; // an empty document
    collect(value, where, out);
  });
  return out;
}

function collect(value: unknown, where: string, out: Manifest[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => collect(v, `${where}[${i}]`, out));
    return;
  }
  if (!value || typeof value !== 'object')
    throw new UsageError(`${where}: expected an object with kind and spec, found ${JSON.stringify(value)}`);
  const doc = value as Record<string, unknown>;
  if (doc.kind === 'List') {
    if (!Array.isArray(doc.items)) throw new UsageError(`${where}: kind List needs an items array`);
    doc.items.forEach((v, i) => collect(v, `${where}.items[${i}]`, out));
    return;
  }
  const manifestKinds = kinds.filter((k) => k.manifest).map((k) => k.kind);
  if (typeof doc.kind !== 'string') throw new UsageError(`${where}: missing kind (one of ${manifestKinds.join(', ')})`);
  const kind = kindByName(doc.kind);
  if (!kind || !kind.manifest)
    throw new UsageError(`${where}: unknown kind '${doc.kind}' (one of ${manifestKinds.join(', ')})`);
  const unknown = Object.keys(doc).filter((k) => !['kind', 'spec', 'apiVersion'].includes(k));
  if (unknown.length)
    throw new UsageError(
      `${where}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} next to kind (the record goes under spec)`,
    );
  if (!doc.spec || typeof doc.spec !== 'object' || Array.isArray(doc.spec))
    throw new UsageError(`${where}: ${kind.kind} needs a spec object`);
  const spec = doc.spec as Record<string, unknown>;
  const id = spec[kind.idField];
  if (kind.numericId ? !Number.isInteger(id) : typeof id !== 'string' || id === '') {
    throw new UsageError(
      `${where}: ${kind.kind} spec.${kind.idField} must be ${kind.numericId ? 'an integer' : 'a non-empty string'}, found ${JSON.stringify(id)}`,
    );
  }
  out.push({ kind, spec, id: id as string | number, where });
}
