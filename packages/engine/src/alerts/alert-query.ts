import { domainError } from '../core/errors.ts';
import {
  alertStatuses,
  maxAlertPage,
  severities,
  severityRank,
  type AlertGroupQuery,
  type AlertListQuery,
  type AlertSelection,
  type AlertStatus,
} from '@weir/contract';
import { queryInstant } from '../core/instant.ts';

/** Where a page ends: the last alert's time and id (the list's order is time, then id, newest first). */
export interface AlertCursor {
  readonly time: number;
  readonly id: string;
}

/** A list query as the index runs it: every field checked. */
export interface AlertFilter {
  readonly from?: number;
  readonly to?: number;
  readonly rule?: string;
  /** Severity ranks (0 informational … 4 critical) an alert may have. */
  readonly severities?: readonly number[];
  readonly statuses?: readonly AlertStatus[];
  readonly assignee?: string;
  readonly techniques?: readonly string[];
  readonly text?: string;
  /** Dotted paths of the alert record and the value each must equal. */
  readonly fields?: readonly (readonly [string, string])[];
  /** Silenced now (`silencedBy` not empty) or not; checked as the query runs. */
  readonly silenced?: boolean;
  readonly limit: number;
  readonly after?: AlertCursor;
}

/** `by` of a group query: the rule, or the value of a field at a dotted path. */
export type GroupBy = { readonly kind: 'rule' } | { readonly kind: 'field'; readonly path: string };

const pathPattern = /^[A-Za-z0-9_@$-]+(?:\.[A-Za-z0-9_@$-]+)*$/;

function range(query: { from?: string; to?: string }): { from?: number; to?: number } {
  const from = queryInstant('from', query.from);
  const to = queryInstant('to', query.to);
  if (from !== undefined && to !== undefined && from > to)
    throw domainError('VALIDATION', `query.from (${query.from}) is after query.to (${query.to})`);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** A dotted field path (`user`, `src.ip`), else VALIDATION naming `name`. */
function fieldPath(name: string, path: string): string {
  if (!pathPattern.test(path))
    throw domainError(
      'VALIDATION',
      `${name} must name a field by its dotted path (letters, digits, _ @ $ -, separated by dots); got '${path}'`,
    );
  return path;
}

export function encodeCursor(cursor: AlertCursor): string {
  return Buffer.from(JSON.stringify([cursor.time, cursor.id])).toString('base64url');
}

export function decodeCursor(raw: string): AlertCursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && Number.isFinite(value[0]) && typeof value[1] === 'string')
      return { time: value[0] as number, id: value[1] };
  } catch {
    // below
  }
  throw domainError('VALIDATION', `query.cursor is not a cursor of this API (pass nextCursor of the previous page)`);
}

/** The values of a repeatable parameter, each one of `allowed`, else VALIDATION naming it. */
function oneOf<T extends string>(
  name: string,
  raw: string | readonly string[] | undefined,
  allowed: readonly T[],
): T[] {
  const values = [raw ?? []].flat();
  for (const v of values)
    if (!(allowed as readonly string[]).includes(v))
      throw domainError('VALIDATION', `query.${name} must be one of ${allowed.join(', ')}; got '${v}'`);
  return values as T[];
}

/** The checked filter of `GET /api/alerts`; throws VALIDATION naming the parameter. */
export function alertFilter(query: AlertListQuery): AlertFilter {
  const limit = query.limit ?? 100;
  if (limit < 1 || limit > maxAlertPage)
    throw domainError('VALIDATION', `query.limit must be from 1 to ${maxAlertPage}; got ${limit}`);
  return {
    ...selection(query),
    limit,
    ...(query.cursor === undefined ? {} : { after: decodeCursor(query.cursor) }),
  };
}

/** The filters the list and the groups share (all but `limit` and `cursor`), checked. */
function selection(query: AlertSelection): Omit<AlertFilter, 'limit' | 'after'> {
  const ranks = new Set<number>();
  for (const s of oneOf('severity', query.severity, severities)) ranks.add(severityRank(s));
  const statuses = oneOf('status', query.status, alertStatuses);
  const techniques = [query.technique ?? []].flat();
  if (query.minSeverity !== undefined) {
    const min = severityRank(query.minSeverity);
    if (ranks.size > 0) {
      // both given: the severities named that are at least the minimum (maybe none: nothing matches)
      for (const r of [...ranks]) if (r < min) ranks.delete(r);
      if (ranks.size === 0) ranks.add(-1);
    } else {
      for (const s of severities) if (severityRank(s) >= min) ranks.add(severityRank(s));
    }
  }
  const fields: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('field.') || typeof value !== 'string') continue;
    fields.push([fieldPath(`query.${key}`, key.slice('field.'.length)), value]);
  }
  return {
    ...range(query),
    ...(query.rule === undefined ? {} : { rule: query.rule }),
    ...(ranks.size === 0 ? {} : { severities: [...ranks] }),
    ...(statuses.length === 0 ? {} : { statuses }),
    ...(query.assignee === undefined ? {} : { assignee: query.assignee }),
    ...(techniques.length === 0 ? {} : { techniques: techniques.map((t) => t.toUpperCase()) }),
    ...(query.q === undefined ? {} : { text: query.q }),
    ...(fields.length === 0 ? {} : { fields }),
    ...(query.silenced === undefined ? {} : { silenced: query.silenced }),
  };
}

/** The checked `by` and filter of `GET /api/alerts/groups` (the list's filters, but `limit` and `cursor`). */
export function groupQuery(query: AlertGroupQuery): { by: GroupBy; filter: Omit<AlertFilter, 'limit' | 'after'> } {
  const by: GroupBy =
    query.by === 'rule'
      ? { kind: 'rule' }
      : query.by.startsWith('field:')
        ? { kind: 'field', path: fieldPath('query.by', query.by.slice('field:'.length)) }
        : (() => {
            throw domainError('VALIDATION', `query.by must be 'rule' or 'field:<dotted path>'; got '${query.by}'`);
          })();
  const { by: _by, ...rest } = query;
  return { by, filter: selection(rest) };
}
