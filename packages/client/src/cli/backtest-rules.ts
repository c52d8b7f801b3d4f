import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compile, isPdlSyntaxError, type CompiledPdl, type LookupResolver, type LookupTable } from '@weir/pdl';
import type { Mapping } from '@weir/sigma';
import { isStringId } from '@weir/contract';
import { parseAllDocuments } from 'yaml';
import { UsageError } from './errors.ts';
import { filesOf, parseManifests } from './manifests.ts';
import { convertFiles } from './sigma-convert.ts';

/** A rule of the rules folder, compiled: what `weirctl backtest` runs. */
export interface BacktestRule {
  readonly id: string;
  /** Where it was read (`rules/root.pdl`, `rules/all.yaml#2`, `rules/sigma/whoami.yml#0`). */
  readonly where: string;
  readonly source: 'pdl' | 'manifest' | 'sigma';
  /** `enabled: false` in its manifest: not run, as the engine skips it. */
  readonly enabled: boolean;
  /** Its PDL (a Sigma rule's: as converted): what a backtest through a server sends. */
  readonly pdl: string;
  readonly compiled: CompiledPdl;
}

/** What a rules folder holds: its rules in file order, and what else it held and was not run. */
export interface RuleSet {
  readonly rules: readonly BacktestRule[];
  /** Manifests of other kinds (Topic, Task, …), by where: listed on stderr, not run. */
  readonly ignored: readonly string[];
}

const ruleExtensions = ['.pdl', '.yaml', '.yml', '.json'];

/** The files of `--rules` arguments: a file as given, a folder's .pdl/.yaml/.yml/.json files (recursively, sorted). */
export function ruleFiles(targets: readonly string[]): string[] {
  return filesOf(targets, ruleExtensions, { label: '--rules ', skipHidden: true });
}

interface RuleText {
  readonly id: string;
  readonly where: string;
  readonly source: BacktestRule['source'];
  readonly enabled: boolean;
  readonly pdl: string;
  /** Added to the PDL's line to give the line in the file (a `.pdl` file: 0); undefined: not a line of the file. */
  readonly lineOffset?: number;
}

/** A YAML file is a manifest file when a document of it has `kind`; otherwise it holds Sigma rules. */
function isManifestYaml(text: string): boolean {
  for (const doc of parseAllDocuments(text) as ReturnType<typeof parseAllDocuments>) {
    if (!('toJS' in doc) || doc.errors.length) return true; // parseManifests reports the error with its line
    const value = doc.toJS() as unknown;
    const first = Array.isArray(value) ? (value[0] as unknown) : value;
    if (first && typeof first === 'object' && 'kind' in first) return true;
  }
  return false;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * Reads and compiles every rule of the files (docs/detection-as-code.md, "Backtests"): a `.pdl` file
 * is one rule whose id is the file name; `.json` files and YAML files with `kind:` are the manifests
 * `weirctl apply` reads (Rule and Lookup are used, other kinds listed as ignored); any other YAML file
 * holds Sigma rules, converted with `mapping`. A rule that does not compile, a Sigma document that
 * does not convert, a duplicate rule id: UsageError naming the file and the position.
 */
export function loadRules(files: readonly string[], mapping: () => Mapping): RuleSet {
  const texts: RuleText[] = [];
  const ignored: string[] = [];
  const lookupRows = new Map<string, LookupTable['rows']>();
  for (const file of files) {
    const ext = path.extname(file).toLowerCase();
    const text = read(file);
    if (ext === '.pdl') {
      const id = path.basename(file, path.extname(file));
      if (!isStringId(id))
        throw new UsageError(`${file}: the file name gives the rule id '${id}', which is not a valid rule id`);
      texts.push({ id, where: file, source: 'pdl', enabled: true, pdl: text, lineOffset: 0 });
    } else if (ext === '.json' || isManifestYaml(text)) {
      for (const m of parseManifests(text, file)) {
        if (m.kind.kind === 'Rule') {
          const { pdl, enabled } = m.spec;
          if (typeof pdl !== 'string') throw new UsageError(`${m.where}: Rule ${m.id}: spec.pdl must be a string`);
          texts.push({ id: String(m.id), where: m.where, source: 'manifest', enabled: enabled !== false, pdl });
        } else if (m.kind.kind === 'Lookup') {
          if (!Array.isArray(m.spec.content))
            throw new UsageError(`${m.where}: Lookup ${m.id}: spec.content must be an array of rows`);
          lookupRows.set(String(m.id), m.spec.content as LookupTable['rows']);
        } else ignored.push(`${m.where} (${m.kind.kind} ${m.id})`);
      }
    } else {
      for (const row of convertFiles([file], mapping())) {
        const where = `${file}#${row.document}`;
        if (row.status === 'error')
          throw new UsageError(
            `${where}: Sigma rule '${row.title ?? '(no title)'}' does not convert: ${row.path ? `${row.path}: ` : ''}${row.reason}`,
          );
        if (row.status === 'converted')
          texts.push({ id: row.id!, where, source: 'sigma', enabled: true, pdl: row.pdl! });
      }
    }
  }
  const tables = new Map<string, LookupTable>();
  const lookups: LookupResolver = {
    get(id) {
      const rows = lookupRows.get(id);
      if (rows === undefined) return undefined;
      let table = tables.get(id);
      if (table === undefined) tables.set(id, (table = { rows }));
      return table;
    },
  };
  const seen = new Map<string, string>();
  const rules = texts.map((t) => {
    const before = seen.get(t.id);
    if (before !== undefined) throw new UsageError(`${t.where}: rule id '${t.id}' is already defined in ${before}`);
    seen.set(t.id, t.where);
    return {
      id: t.id,
      where: t.where,
      source: t.source,
      enabled: t.enabled,
      pdl: t.pdl,
      compiled: compileRule(t, lookups),
    };
  });
  return { rules, ignored };
}

function compileRule(t: RuleText, lookups: LookupResolver): CompiledPdl {
  try {
    return compile(t.pdl, { lookups, stateId: `rule:${t.id}` });
  } catch (err) {
    if (!isPdlSyntaxError(err)) throw err;
    const at =
      t.lineOffset === undefined
        ? `${t.where}: rule '${t.id}' does not compile: PDL line ${err.line}, column ${err.column}`
        : `${t.where}:${err.line + t.lineOffset}:${err.column}: rule '${t.id}' does not compile`;
    const hint = err.code === 'UNKNOWN_LOOKUP' ? ' (a Lookup manifest in --rules provides a lookup)' : '';
    throw new UsageError(`${at}: ${err.detail}${hint}${err.excerpt ? `\n${err.excerpt}` : ''}`);
  }
}
