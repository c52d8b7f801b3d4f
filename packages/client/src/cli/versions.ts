import { maxChangeNoteLength, type VersionDiff, type VersionSummary } from '@weir/contract';
import type { ResourceApi, WeirClient } from '../client.ts';
import type { ParsedCommand } from './args.ts';
import { formatLines } from './diff.ts';
import { UsageError } from './errors.ts';
import { kindByName, versionedKinds, type KindInfo } from './kinds.ts';
import { formatRecord, formatValue, table } from './output.ts';
import { openSession } from './session.ts';

/**
 * `weirctl history`, `diff` and `rollback` (docs/cli.md, "history, diff, rollback"): the versions
 * every change of a rule, task, pipeline or topology stores (docs/detection-as-code.md, "Versions"),
 * and `--note`, the change note of the writes weirctl makes.
 */

type Io = { readonly out: (s: string) => void; readonly env: NodeJS.ProcessEnv };
type Id = string | number;
type Versioned = ResourceApi<unknown, Id>;

/** The kind argument of a version command; UsageError for an unknown kind or one without versions. */
export function versionedKind(command: string, name: string): KindInfo {
  const kind = kindByName(name);
  if (!kind || !(versionedKinds as readonly string[]).includes(kind.plural))
    throw new UsageError(
      `${command}: ${kind ? `${kind.plural} keep no versions` : `unknown kind '${name}'`}; versions are kept for ${versionedKinds.join(', ')}`,
    );
  return kind;
}

function idArg(command: string, kind: KindInfo, text: string): Id {
  if (!kind.numericId) return text;
  if (!/^\d+$/.test(text)) throw new UsageError(`${command}: ${kind.plural} have integer ids, found '${text}'`);
  return Number(text);
}

/** A version number argument (`<version>`, `<from>`, `<to>`): a whole number from 1. */
export function versionArg(command: string, name: string, text: string): number {
  if (!/^[1-9]\d*$/.test(text))
    throw new UsageError(`${command}: <${name}> must be a version number (a whole number from 1), found '${text}'`);
  return Number(text);
}

/** `--note TEXT`: the change note sent with a write; UsageError for a blank or too long one (nothing is sent). */
export function noteFlag(cmd: ParsedCommand): string | undefined {
  const note = cmd.values.note as string | undefined;
  if (note === undefined) return undefined;
  if (note.trim() === '') throw new UsageError(`${cmd.command}: --note is blank; give the text of the change note`);
  if (note.length > maxChangeNoteLength)
    throw new UsageError(
      `${cmd.command}: --note has ${note.length} characters; a change note has at most ${maxChangeNoteLength}`,
    );
  return note;
}

function api(weir: WeirClient, kind: KindInfo): Versioned {
  return weir[kind.plural as (typeof versionedKinds)[number]] as unknown as Versioned;
}

const label = (kind: KindInfo, id: Id) => `${kind.kind.toLowerCase()}/${id}`;

/** A version's action, with the version a rollback restored. */
const action = (v: VersionSummary) =>
  v.rollbackOf === undefined ? v.action : `${v.action} (rollback of ${v.rollbackOf})`;

/** The versions as a table, oldest first. */
export function historyTable(versions: readonly VersionSummary[]): string {
  return table(
    ['VERSION', 'TIME', 'USER', 'ACTION', 'NOTE'],
    versions.map((v) => [v.version, v.time, v.user ?? '-', action(v), v.note ?? '']),
  );
}

const json = (v: unknown) => JSON.stringify(v);

/**
 * A diff of two versions as text: a header, one line per changed field (`~ path: before → after`,
 * `+ path: after` for a field only the later has, `- path: before` for one only the earlier has) and,
 * for rules, the PDL's line diff (in place of its `pdl` field change).
 */
export function diffText(what: string, diff: VersionDiff): string {
  const fields = diff.changes.filter((c) => !(diff.pdl && c.path === 'pdl'));
  const pdl = diff.pdl ? formatLines(diff.pdl) : '';
  if (!fields.length && !pdl) return `${what}: no differences between versions ${diff.from} and ${diff.to}\n`;
  const lines = fields.map((c) =>
    !('before' in c)
      ? `+ ${c.path}: ${json(c.after)}`
      : !('after' in c)
        ? `- ${c.path}: ${json(c.before)}`
        : `~ ${c.path}: ${json(c.before)} → ${json(c.after)}`,
  );
  return `--- ${what} version ${diff.from}\n+++ ${what} version ${diff.to}\n${lines.map((l) => `${l}\n`).join('')}${pdl ? `pdl:\n${pdl.replace(/^(?=.)/gm, '  ')}` : ''}`;
}

/** `history <kind> <id> [version]`: the versions as a table, or one version in full (YAML by default). */
export async function history(cmd: ParsedCommand, io: Io): Promise<void> {
  const [kindName, idText, versionText] = cmd.positionals as [string, string, string | undefined];
  const kind = versionedKind('history', kindName);
  const id = idArg('history', kind, idText);
  const version = versionText === undefined ? undefined : versionArg('history', 'version', versionText);
  const { weir } = openSession(cmd, io.env);
  if (version === undefined) {
    const versions = await api(weir, kind).versions(id);
    const format = cmd.output ?? 'table';
    return io.out(format === 'table' ? historyTable(versions) : formatValue(versions, format));
  }
  const detail = await api(weir, kind).version(id, version);
  if (cmd.output === 'table') return io.out(historyTable([detail]));
  io.out(formatRecord(kind, detail as unknown as Record<string, unknown>, cmd.output ?? 'yaml'));
}

/** `diff <kind> <id> <from> [to]`: what changed between two versions (`to` defaults to the latest). */
export async function diff(cmd: ParsedCommand, io: Io): Promise<void> {
  const [kindName, idText, fromText, toText] = cmd.positionals as [string, string, string, string | undefined];
  const kind = versionedKind('diff', kindName);
  const id = idArg('diff', kind, idText);
  const from = versionArg('diff', 'from', fromText);
  let to = toText === undefined ? undefined : versionArg('diff', 'to', toText);
  const { weir } = openSession(cmd, io.env);
  if (to === undefined) {
    const versions = await api(weir, kind).versions(id);
    if (!versions.length)
      throw new Error(`${label(kind, id)} has no versions yet (it has not changed since versions are kept)`);
    to = versions[versions.length - 1]!.version;
  }
  const changes = await api(weir, kind).diff(id, from, to);
  io.out(cmd.output && cmd.output !== 'table' ? formatValue(changes, cmd.output) : diffText(label(kind, id), changes));
}

/** `rollback <kind> <id> <version> [--note TEXT]`: stores the version again, as a new version. */
export async function rollback(cmd: ParsedCommand, io: Io): Promise<void> {
  const [kindName, idText, versionText] = cmd.positionals as [string, string, string];
  const kind = versionedKind('rollback', kindName);
  const id = idArg('rollback', kind, idText);
  const version = versionArg('rollback', 'version', versionText);
  const note = noteFlag(cmd);
  const { weir } = openSession(cmd, io.env);
  const record = await api(weir, kind).rollback(id, version, note);
  if (cmd.output && cmd.output !== 'table')
    return io.out(formatRecord(kind, record as Record<string, unknown>, cmd.output));
  const latest = (await api(weir, kind).versions(id)).at(-1);
  const stored = latest?.rollbackOf === version ? ` (stored as version ${latest.version})` : '';
  io.out(`${label(kind, id)} rolled back to version ${version}${stored}\n`);
}
