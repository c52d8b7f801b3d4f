import {
  alertResolutions,
  alertStatuses,
  severities,
  type AlertListQuery,
  type AlertTriageChange,
} from '@weir/contract';
import type { AlertView } from '../types.ts';
import { intFlag, type ParsedCommand } from './args.ts';
import { UsageError } from './errors.ts';
import { formatValue, table } from './output.ts';
import { openSession } from './session.ts';

type Values = ParsedCommand['values'];

/**
 * `weirctl alerts list|get|ack|close|group` (docs/cli.md, "alerts"): the node's alert store and
 * triage (docs/alerts.md, "The alert store and triage").
 */
export async function alerts(
  cmd: ParsedCommand,
  io: { readonly out: (s: string) => void; readonly env: NodeJS.ProcessEnv },
): Promise<void> {
  const [action, ...ids] = cmd.positionals;
  const { weir } = openSession(cmd, io.env);
  const structured = cmd.output !== undefined && cmd.output !== 'table';
  const printAlerts = (list: readonly AlertView[]) =>
    io.out(
      structured
        ? formatValue(list, cmd.output!)
        : table(
            ['ID', 'TIME', 'SEVERITY', 'RULE', 'STATUS', 'ASSIGNEE', 'SILENCED'],
            list.map((a) => [
              a.id,
              new Date(a.time).toISOString(),
              a.severity,
              a.rule.id ?? '',
              a.status === 'closed' && a.resolution ? `closed (${a.resolution})` : a.status,
              a.assignee ?? '',
              a.silencedBy && a.silencedBy.length > 0 ? 'yes' : '',
            ]),
          ),
    );
  switch (action) {
    case 'list': {
      noIds(action, ids);
      const query = listQuery(cmd.values);
      const all = cmd.values.all === true;
      const found: AlertView[] = [];
      for (let cursor: string | undefined; ;) {
        const page = await weir.alerts({ ...query, ...(cursor ? { cursor } : {}) });
        found.push(...page.alerts);
        if (!all || page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      return printAlerts(found);
    }
    case 'get':
      if (ids.length !== 1) throw new UsageError('alerts get <id>');
      return io.out(formatValue(await weir.alert(ids[0]!), structured ? cmd.output! : 'json'));
    case 'ack':
      return printAlerts(await weir.triageAlerts(idsOf(action, ids), triage(cmd.values, 'acknowledged')));
    case 'close':
      return printAlerts(await weir.triageAlerts(idsOf(action, ids), triage(cmd.values, 'closed')));
    case 'group': {
      noIds(action, ids);
      const by = cmd.values.by as string | undefined;
      if (!by) throw new UsageError('alerts group: give --by rule or --by field:<path> (e.g. field:user)');
      const groups = await weir.alertGroups({ by, ...timeRange(cmd.values) });
      return io.out(
        structured
          ? formatValue(groups, cmd.output!)
          : table(
              [
                by === 'rule' ? 'RULE' : by.slice('field:'.length).toUpperCase() || 'KEY',
                'COUNT',
                'FIRST SEEN',
                'LAST SEEN',
              ],
              groups.groups.map((g) => [
                g.key ?? '(none)',
                String(g.count),
                new Date(g.firstSeen).toISOString(),
                new Date(g.lastSeen).toISOString(),
              ]),
            ),
      );
    }
    default:
      throw new UsageError(`alerts: list, get, ack, close or group, found '${action ?? ''}'`);
  }
}

function noIds(action: string, ids: readonly string[]): void {
  if (ids.length > 0) throw new UsageError(`alerts ${action} takes no id, found '${ids.join(' ')}'`);
}

function idsOf(action: string, ids: readonly string[]): string[] {
  if (ids.length === 0) throw new UsageError(`alerts ${action} <id>...: give the ids of the alerts`);
  return [...new Set(ids)];
}

const list = (v: unknown): string[] => (v === undefined ? [] : (v as string[]));

function oneOf(flag: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value))
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, found '${value}'`);
  return value;
}

function timeRange(values: Values): { from?: string; to?: string } {
  return {
    ...(values.from !== undefined ? { from: values.from as string } : {}),
    ...(values.to !== undefined ? { to: values.to as string } : {}),
  };
}

/** The list's filters, checked here where a mistake is the user's (the server checks the rest). */
export function listQuery(values: Values): AlertListQuery {
  const query: Record<string, unknown> = { ...timeRange(values) };
  const severity = list(values.severity).map((s) => oneOf('severity', s, severities));
  if (severity.length) query.severity = severity;
  if (values['min-severity'] !== undefined)
    query.minSeverity = oneOf('min-severity', values['min-severity'] as string, severities);
  const status = list(values.status).map((s) => oneOf('status', s, alertStatuses));
  if (status.length) query.status = status;
  const technique = list(values.technique);
  if (technique.length) query.technique = technique;
  for (const key of ['rule', 'assignee', 'q'] as const) if (values[key] !== undefined) query[key] = values[key];
  const limit = intFlag(values, 'limit');
  if (limit !== undefined) query.limit = limit;
  for (const f of list(values.field)) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new UsageError(`--field '${f}': write path=value (e.g. user=alice, host.name=web-1)`);
    query[`field.${f.slice(0, eq)}`] = f.slice(eq + 1);
  }
  return query as AlertListQuery;
}

/** The change of `ack` and `close`: the status, and the resolution, assignee and note given. */
export function triage(values: Values, status: 'acknowledged' | 'closed'): AlertTriageChange {
  const resolution = values.resolution as string | undefined;
  if (status === 'closed' && resolution === undefined)
    throw new UsageError(`alerts close: give --resolution (${alertResolutions.join(', ')})`);
  if (status !== 'closed' && resolution !== undefined) throw new UsageError('--resolution goes with close only');
  return {
    status,
    ...(resolution !== undefined
      ? { resolution: oneOf('resolution', resolution, alertResolutions) as AlertTriageChange['resolution'] }
      : {}),
    ...(values.assignee !== undefined ? { assignee: values.assignee as string } : {}),
    ...(values.note !== undefined ? { note: values.note as string } : {}),
  };
}
