import { readdirSync, readFileSync } from 'node:fs';
import {
  builtInMappingsUrl,
  convertSigma,
  MappingError,
  parseMapping,
  type DocumentResult,
  type Mapping,
} from '@weir/sigma';
import { UsageError } from './errors.ts';

/** The names of the mappings that ship with Weir (`evtx-json`, `winlogbeat`, …). */
export function builtInMappingNames(): string[] {
  return readdirSync(builtInMappingsUrl)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** A mapping by built-in name or from a YAML file the user gives (`--mapping-file`). */
export function loadMapping(name: string | undefined, file: string | undefined): Mapping {
  if (name !== undefined && file !== undefined)
    throw new UsageError('sigma convert: give --mapping or --mapping-file, not both');
  let text: string;
  let where: string;
  if (file !== undefined) {
    text = readFileSync(file, 'utf8');
    where = file;
  } else {
    const chosen = name ?? 'evtx-json';
    if (!builtInMappingNames().includes(chosen)) {
      throw new UsageError(
        `sigma convert: unknown mapping '${chosen}'; built in: ${builtInMappingNames().join(', ')} (or --mapping-file <yaml>)`,
      );
    }
    text = readFileSync(new URL(`${chosen}.yml`, builtInMappingsUrl), 'utf8');
    where = `mapping ${chosen}`;
  }
  try {
    return parseMapping(text);
  } catch (err) {
    if (err instanceof MappingError) throw new UsageError(`${where}: ${err.message}`);
    throw err;
  }
}

/** One converted or refused document of one file, in the shape the command prints. */
export interface ConvertRow {
  readonly file: string;
  readonly document: number;
  readonly status: DocumentResult['status'];
  readonly title: string | null;
  readonly id?: string;
  readonly pdl?: string;
  readonly annotations?: string[];
  /** From Sigma's `level`; absent without one (the rule is then medium). */
  readonly severity?: string;
  readonly appliedTo?: string[];
  readonly path?: string;
  readonly reason?: string;
}

/** Converts every file offline (no server): the same converter POST /api/import/sigma runs. */
export function convertFiles(files: readonly string[], mapping: Mapping): ConvertRow[] {
  const rows: ConvertRow[] = [];
  for (const file of files) {
    for (const r of convertSigma(readFileSync(file, 'utf8'), { mapping })) {
      const base = { file, document: r.document, status: r.status, title: r.sigma.title };
      if (r.status === 'converted')
        rows.push({
          ...base,
          id: r.rule.id,
          pdl: r.rule.pdl,
          annotations: r.rule.annotations,
          ...(r.rule.severity ? { severity: r.rule.severity } : {}),
        });
      else if (r.status === 'filter') rows.push({ ...base, appliedTo: r.appliedTo });
      else rows.push({ ...base, path: r.path, reason: r.reason });
    }
  }
  return rows;
}

/**
 * The default output of `sigma convert`: per document a header line (file, document, status, rule
 * id, title), then its whole PDL, or the reason with its YAML path, or the rules a filter applies
 * to, indented; a blank line between documents. Never cut: the PDL is what the user asked for.
 */
export function convertReport(rows: readonly ConvertRow[]): string {
  return rows
    .map((r) => {
      const head = [`${r.file}#${r.document}`, r.status, r.id, r.title ?? '(no title)'].filter(Boolean).join('  ');
      const body =
        r.status === 'converted'
          ? (r.pdl ?? '')
          : r.status === 'filter'
            ? `applies to ${r.appliedTo?.join(', ') || 'no rule'}`
            : [r.path, r.reason].filter(Boolean).join(': ');
      return `${head}\n${body
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n')}\n`;
    })
    .join('\n');
}
