import { stringify } from 'yaml';
import type { KindInfo } from './kinds.ts';

export type OutputFormat = 'table' | 'json' | 'yaml';
export const outputFormats: readonly OutputFormat[] = ['table', 'json', 'yaml'];

type Row = Record<string, unknown>;
type Column = readonly [header: string, value: (r: Row) => unknown];

const list = (v: unknown): string => (Array.isArray(v) ? v.join(',') : '');
const topicName = (v: unknown): string =>
  v && typeof v === 'object' ? String((v as { name?: unknown }).name ?? '') : String(v ?? '');

/** The columns of each kind's table (as kubectl's `get`: the fields one scans for; -o yaml has all). */
const columns: Record<string, readonly Column[]> = {
  topics: [
    ['NAME', (r) => r.name],
    ['PARTITIONS', (r) => r.numberOfPartitions],
    ['REPLICATION', (r) => r.replicationFactor],
  ],
  lookups: [
    ['ID', (r) => r.id],
    ['ROWS', (r) => (Array.isArray(r.content) ? r.content.length : '')],
  ],
  rules: [
    ['ID', (r) => r.id],
    ['NAME', (r) => r.name],
    ['ENABLED', (r) => r.enabled],
    ['ANNOTATIONS', (r) => list(r.annotations)],
    ['PDL', (r) => r.pdl],
  ],
  tasks: [
    ['ID', (r) => r.id],
    ['NAME', (r) => r.name],
    ['FUNCTION', (r) => r.function],
    ['DESCRIPTION', (r) => r.description],
  ],
  pipelines: [
    ['ID', (r) => r.id],
    ['NAME', (r) => r.name],
    ['TASKS', (r) => list(r.tasks)],
    ['DESCRIPTION', (r) => r.description],
  ],
  topologies: [
    ['ID', (r) => r.id],
    ['NAME', (r) => r.name],
    ['ENABLED', (r) => r.enabled],
    ['GROUP', (r) => r.group],
    ['INPUT', (r) => topicName(r.input)],
    ['OUTPUT', (r) => (Array.isArray(r.output) ? r.output.map(topicName).join(',') : '')],
    ['PIPELINES', (r) => list(r.pipelines)],
  ],
  users: [
    ['USERNAME', (r) => r.username],
    ['NAME', (r) => r.name],
    ['EMAIL', (r) => r.email],
    ['ROLES', (r) => (Array.isArray(r.roles) ? r.roles.map((x: { name?: string }) => x.name).join(',') : '')],
  ],
  nodes: [
    ['UUID', (r) => r.uuid],
    ['HOST', (r) => r.host],
    ['REST', (r) => r.rest],
    ['GROUP', (r) => r.group],
  ],
  groups: [
    ['ID', (r) => r.id],
    ['STATE', (r) => r.state],
    ['MEMBERS', (r) => r.members],
    ['LAG', (r) => r.lag],
    ['TOPOLOGIES', (r) => (Array.isArray(r.topologies) ? r.topologies.map((t: { id: number }) => t.id).join(',') : '')],
  ],
};

const maxCell = 60;

function cell(v: unknown, whole: boolean): string {
  const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const one = s.replace(/\s+/g, ' ');
  return !whole && one.length > maxCell ? `${one.slice(0, maxCell - 1)}…` : one;
}

/** Aligned columns, two spaces apart, headers in capitals; long cells end in an ellipsis unless `whole`. */
export function table(headers: readonly string[], rows: readonly (readonly unknown[])[], whole = false): string {
  const cells = rows.map((r) => r.map((v) => cell(v, whole)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}

/** Records of one kind in the chosen format. */
export function formatRecords(kind: KindInfo, records: readonly Row[], format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`;
  if (format === 'yaml') return stringify(records);
  const cols = columns[kind.plural]!;
  return table(
    cols.map(([h]) => h),
    records.map((r) => cols.map(([, f]) => f(r))),
  );
}

/** One record (describe, get with an id) in the chosen format; a table has one row. */
export function formatRecord(kind: KindInfo, record: Row, format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(record, null, 2)}\n`;
  if (format === 'yaml') return stringify(record);
  return formatRecords(kind, [record], 'table');
}

/** Any value as JSON or YAML (engine state, test results). */
export function formatValue(value: unknown, format: OutputFormat): string {
  return format === 'yaml' ? stringify(value) : `${JSON.stringify(value, null, 2)}\n`;
}
