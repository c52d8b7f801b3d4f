import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lintPdl, lintRuleReferences, sortDiagnostics, type LintDiagnostic } from '@weir/pdl';
import { lintSigma } from '@weir/sigma';
import { parseAllDocuments } from 'yaml';
import type { ParsedCommand } from './args.ts';
import { ReportedFailure, UsageError } from './errors.ts';
import { filesOf, parseManifests, type Manifest } from './manifests.ts';
import { formatValue } from './output.ts';
import { openSession } from './session.ts';

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Lints one PDL text: here (no server), or by a server (`--topic`). */
type PdlLinter = (text: string) => readonly LintDiagnostic[] | Promise<readonly LintDiagnostic[]>;

/** A diagnostic of a file: `where` is the file, or `file#N` for a rule or task of a manifest file (then the position is within its `spec.pdl`). */
export interface FileDiagnostic extends LintDiagnostic {
  readonly where: string;
}

const extensions = ['.pdl', '.yaml', '.yml', '.json'];

function files(targets: readonly string[]): string[] {
  return filesOf(targets, extensions, { label: 'lint: ', skipHidden: true });
}

/** A YAML file is a manifest file when a document of it has `kind`; otherwise it holds Sigma documents. */
function isManifestYaml(text: string): boolean {
  for (const doc of parseAllDocuments(text) as ReturnType<typeof parseAllDocuments>) {
    if (!('toJS' in doc) || doc.errors.length) return false; // lintSigma reports the YAML error with its line
    const value = doc.toJS() as unknown;
    const first = Array.isArray(value) ? (value[0] as unknown) : value;
    if (first && typeof first === 'object' && 'kind' in first) return true;
  }
  return false;
}

/**
 * Lints files (docs/cli.md, `weirctl lint`): `.pdl` files, manifest files (each Rule's PDL; each
 * APPLY_RULES Task's rule ids against the rules the linted files define) and Sigma YAML. By default
 * nothing is sent to a server, so lookups and fields are not checked (`pdl` may be the API's lint,
 * which checks them).
 */
export async function lintFiles(
  targets: readonly string[],
  pdl: PdlLinter = (text) => lintPdl(text),
): Promise<FileDiagnostic[]> {
  const out: FileDiagnostic[] = [];
  const rules = new Set<string>();
  const tasks: Manifest[] = [];
  for (const file of files(targets)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`lint: cannot read ${file}: ${(err as Error).message}`);
    }
    const ext = path.extname(file).toLowerCase();
    if (ext === '.pdl') {
      rules.add(path.basename(file, ext));
      out.push(...(await pdl(text)).map((d) => ({ where: file, ...d })));
    } else if (ext === '.json' || isManifestYaml(text)) {
      for (const m of parseManifests(text, file)) {
        if (m.kind.kind === 'Rule') {
          rules.add(String(m.id));
          if (typeof m.spec.pdl === 'string')
            out.push(...(await pdl(m.spec.pdl)).map((d) => ({ where: m.where, ...d })));
        } else if (m.kind.kind === 'Task') tasks.push(m);
      }
    } else out.push(...lintSigma(text).map(({ document: _, ...d }) => ({ where: file, ...d })));
  }
  for (const task of tasks) {
    const definition = task.spec.definition as { rules?: unknown } | undefined;
    if (task.spec.function === 'APPLY_RULES' && Array.isArray(definition?.rules))
      out.push(...lintRuleReferences(definition.rules, rules).map((d) => ({ where: task.where, ...d })));
  }
  return out;
}

export function lintLine(d: FileDiagnostic): string {
  const at = d.line > 0 ? `${d.where}:${d.line}:${d.column}` : `${d.where}${d.path === undefined ? '' : ` ${d.path}`}`;
  return `${at} ${d.severity} ${d.code} ${d.message}${d.fix === undefined ? '' : ` [fix: ${d.fix.title}]`}`;
}

/** `--sample N`: a whole number from 1 to 1000 (the API's bound). */
function sampleOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || n < 1 || n > 1000)
    throw new UsageError(`lint: --sample must be a whole number from 1 to 1000, found '${String(value)}'`);
  return n;
}

/**
 * The PDL linter of `--topic T [--sample N]`: the signed-in server's POST /api/lint/pdl, which
 * checks lookups against the stored ones and fields against the topic's most recent records.
 */
function serverLinter(cmd: ParsedCommand, io: Io): PdlLinter | undefined {
  const topic = cmd.values.topic as string | undefined;
  const sample = sampleOption(cmd.values.sample);
  if (topic === undefined) {
    if (sample !== undefined)
      throw new UsageError('lint: --sample is how many records of --topic are read; give --topic');
    return undefined;
  }
  if (topic === '') throw new UsageError('lint: --topic needs a topic name');
  const { weir } = openSession(cmd, io.env);
  return async (text) =>
    (await weir.lintPdl(text, sample === undefined ? { topic } : { topic, sample })).diagnostics as LintDiagnostic[];
}

/**
 * `weirctl lint <file|folder>... [--topic T [--sample N]] [--strict] [-o text|json|yaml]`: exit 1
 * on an error (with --strict, on a warning too).
 */
export async function lint(cmd: ParsedCommand, io: Io): Promise<void> {
  if (cmd.positionals.length === 0) throw new UsageError('lint: give the files or folders to lint');
  const format = (cmd.values.output as string | undefined) ?? 'table';
  const byFile = new Map<string, FileDiagnostic[]>();
  for (const d of await lintFiles(cmd.positionals, serverLinter(cmd, io)))
    byFile.set(d.where, [...(byFile.get(d.where) ?? []), d]);
  const diagnostics = [...byFile.values()].flatMap((list) => sortDiagnostics(list));
  const count = (s: string) => diagnostics.filter((d) => d.severity === s).length;
  const summary = { errors: count('error'), warnings: count('warning'), infos: count('info') };
  if (format === 'table') {
    for (const d of diagnostics) io.out(`${lintLine(d)}\n`);
  } else io.out(formatValue({ ...summary, diagnostics }, format as 'json' | 'yaml'));
  io.err(`${summary.errors} error(s), ${summary.warnings} warning(s), ${summary.infos} info(s)\n`);
  if (summary.errors > 0 || (cmd.values.strict === true && summary.warnings > 0)) throw new ReportedFailure('lint');
}
