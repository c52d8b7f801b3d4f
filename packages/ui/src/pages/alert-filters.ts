import type { AlertListQuery, AlertView } from '@weir/client';

/**
 * The Alerts page's state in its URL (docs/ui.md, "Alerts"): the filters as `GET /api/alerts`
 * names them (`severity`, `status` and `technique` repeat; `field.<path>=<value>` too), the time
 * range as a preset (`range=1h`) or `from`/`to`, and the grouping (`group=rule|field:<path>`).
 */
export const timeRanges = { '15m': 15 * 60_000, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type TimeRange = keyof typeof timeRanges;

const repeatable = ['severity', 'status', 'technique'] as const;
const single = ['rule', 'assignee', 'q', 'from', 'to'] as const;

/** The API query of the page's URL at `now` (a `range` preset becomes `from`; empty values are left out). */
export function alertQuery(search: string, now: number): AlertListQuery {
  const params = new URLSearchParams(search);
  const query: AlertListQuery = {};
  for (const key of repeatable) {
    const values = params.getAll(key).filter((v) => v !== '');
    if (values.length > 0) query[key] = values;
  }
  for (const key of single) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  const range = params.get('range');
  if (range && range in timeRanges) query.from = String(now - timeRanges[range as TimeRange]);
  for (const [key, value] of params)
    if (key.startsWith('field.') && key.length > 6) query[key as `field.${string}`] = value;
  return query;
}

/** The group-by of the URL: `rule`, `field:<path>`, or none. */
export function groupBy(search: string): string | undefined {
  const by = new URLSearchParams(search).get('group');
  return by === 'rule' || (by?.startsWith('field:') && by.length > 6) ? by : undefined;
}

/**
 * The URL's search with `key` set to `values` (none: removed), the rest kept in order; `''` when
 * nothing is left. The cursor of the list is not in the URL: a changed filter starts at the newest.
 */
export function withParam(search: string, key: string, values: string | readonly string[] | undefined): string {
  const params = new URLSearchParams(search);
  params.delete(key);
  for (const v of typeof values === 'string' ? [values] : (values ?? [])) if (v !== '') params.append(key, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filter a group's row sets: its rule, or its field's value (`null`, an absent field, sets none). */
export function groupFilter(search: string, by: string, key: string | null): string | undefined {
  if (key === null) return undefined;
  if (by === 'rule') return withParam(search, 'rule', key);
  return withParam(search, `field.${by.slice('field:'.length)}`, key);
}

/** The filters set in the URL, for the chips above the list (`severity: high`, `field.user: alice`). */
export function activeFilters(search: string): { key: string; value: string }[] {
  return [...new URLSearchParams(search)]
    .filter(([key, value]) => key !== 'group' && value !== '')
    .map(([key, value]) => ({ key, value }));
}

const newestFirst = (a: AlertView, b: AlertView) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The list after a poll of the first page: the alerts loaded so far with the page's alerts in place
 * of theirs (a triage change, a later suppression count) and the new ones added; newest first as the
 * API orders (event time, then id, both descending). The older pages stay: "Load more" goes on from
 * the cursor of the last of them, so no alert is skipped when new ones push the first page down.
 */
export function mergeNewest(loaded: readonly AlertView[], firstPage: readonly AlertView[]): AlertView[] {
  const byId = new Map(loaded.map((a) => [a.id, a]));
  for (const a of firstPage) byId.set(a.id, a);
  return [...byId.values()].sort(newestFirst);
}
