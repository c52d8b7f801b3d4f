import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AlertGroup } from '@weir/contract';
import type { GroupBy } from './alert-query.ts';
import { bucketMs, ruleOfKey } from './alert-schema.ts';

/** At most this many groups in an answer. */
export const maxGroups = 1000;

/** `$."a"."b"` for the dotted path `a.b` (the path's characters are checked by alert-query.ts). */
export const jsonPath = (dotted: string) =>
  `$.${dotted
    .split('.')
    .map((p) => `"${p}"`)
    .join('.')}`;

/** The SQL of a group's key on `alerts` (alias `a`), with its argument. */
export function groupKey(by: GroupBy): { sql: string; args: SQLInputValue[] } {
  return by.kind === 'rule'
    ? { sql: 'a.rule', args: [] }
    : { sql: 'CAST(json_extract(a.record, ?) AS TEXT)', args: [jsonPath(by.path)] };
}

interface Partial {
  key: string | null;
  count: number;
  first?: number;
  last?: number;
  /** First and last bucket holding the key (bucket rows), when it has some. */
  b0?: number;
  b1?: number;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
/** SQLite's order of keys: NULL first, then text by its UTF-8 bytes (BINARY). */
function keyOrder(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return Buffer.compare(utf8(a), utf8(b));
}

/**
 * The groups of a time range from the hourly counts (docs/alerts.md): whole hours inside the range
 * are summed from `rule_counts` or `entity_counts`; the part of the range before the first whole hour
 * and after the last is counted on `alerts` itself; each group's first and last seen is looked up
 * exactly, in its first and last hour, by index. Same answer as a scan of `alerts` over the range.
 * `by` a field must be indexed (alert-entities.ts). An alert without the field counts in the group
 * of key null, as in the scan: all alerts of the whole hours less those with the field.
 * Undefined when the range is too short for whole hours (the caller scans).
 */
export function countedGroups(
  db: DatabaseSync,
  by: GroupBy,
  range: { from?: number; to?: number },
): AlertGroup[] | undefined {
  const b0 = range.from === undefined ? undefined : Math.ceil(range.from / bucketMs);
  const b1 = range.to === undefined ? undefined : Math.floor((range.to + 1) / bucketMs) - 1;
  // under two hours: the edges would overlap; the caller scans
  if (b0 !== undefined && b1 !== undefined && b0 > b1 + 1) return undefined;
  const groups = new Map<string | null, Partial>();
  const partial = (key: string | null) => {
    let p = groups.get(key);
    if (!p) groups.set(key, (p = { key, count: 0 }));
    return p;
  };
  const key = groupKey(by);
  // the edges: from `from` to the first whole hour, from the end of the last whole hour to `to`
  const edge = (lo: number | undefined, hi: number | undefined) => {
    const where = [...(lo === undefined ? [] : ['a.time >= ?']), ...(hi === undefined ? [] : ['a.time <= ?'])];
    const rows = db
      .prepare(
        `SELECT ${key.sql} AS key, COUNT(*) AS count, MIN(a.time) AS first, MAX(a.time) AS last FROM alerts a
         WHERE ${where.join(' AND ')} GROUP BY 1`,
      )
      .all(...key.args, ...[lo, hi].filter((v) => v !== undefined)) as unknown as Partial[];
    for (const r of rows) {
      const p = partial(r.key);
      p.count += r.count;
      p.first = Math.min(p.first ?? Infinity, r.first!);
      p.last = Math.max(p.last ?? -Infinity, r.last!);
    }
  };
  if (b0 !== undefined) edge(range.from, b0 * bucketMs - 1);
  if (b1 !== undefined) edge((b1 + 1) * bucketMs, range.to);
  const within: string[] = [];
  const bounds: number[] = [];
  if (b0 !== undefined) {
    within.push('bucket >= ?');
    bounds.push(b0);
  }
  if (b1 !== undefined) {
    within.push('bucket <= ?');
    bounds.push(b1);
  }
  const whereBuckets = within.length ? `AND ${within.join(' AND ')}` : '';
  const counted = (sql: string, ...args: SQLInputValue[]) =>
    db.prepare(sql).all(...args, ...bounds) as unknown as { key: string; n: number; b0: number; b1: number }[];
  const addCounted = (key: string | null, n: number, first: number, last: number) => {
    const p = partial(key);
    p.count += n;
    p.b0 = first;
    p.b1 = last;
  };
  const allRows = counted(
    `SELECT '' AS key, SUM(n) AS n, MIN(bucket) AS b0, MAX(bucket) AS b1 FROM rule_counts WHERE 1 ${whereBuckets}`,
  );
  if (by.kind === 'rule') {
    for (const r of counted(
      `SELECT rule AS key, SUM(n) AS n, MIN(bucket) AS b0, MAX(bucket) AS b1 FROM rule_counts
       WHERE 1 ${whereBuckets} GROUP BY rule`,
    ))
      addCounted(ruleOfKey(r.key), r.n, r.b0, r.b1);
  } else {
    let withField = 0;
    for (const r of counted(
      `SELECT value AS key, SUM(n) AS n, MIN(bucket) AS b0, MAX(bucket) AS b1 FROM entity_counts
       WHERE field = ? ${whereBuckets} GROUP BY value`,
      by.path,
    )) {
      addCounted(r.key, r.n, r.b0, r.b1);
      withField += r.n;
    }
    const all = allRows[0]!;
    const missing = (all.n ?? 0) - withField;
    if (missing > 0) addCounted(null, missing, all.b0, all.b1);
  }
  const sorted = [...groups.values()]
    .filter((p) => p.count > 0)
    .sort((a, b) => b.count - a.count || keyOrder(a.key, b.key))
    .slice(0, maxGroups);
  const seen = seenIn(db, by);
  const groupsSeen = sorted.map((p) => {
    // an edge precedes (follows) every whole hour: its first (last) seen, when it has the key, is the group's
    const first =
      p.first !== undefined && (p.b0 === undefined || (b0 !== undefined && p.first < b0 * bucketMs))
        ? p.first
        : seen.ask(p.key, p.b0!, 'MIN');
    const last =
      p.last !== undefined && (p.b1 === undefined || (b1 !== undefined && p.last >= (b1 + 1) * bucketMs))
        ? p.last
        : seen.ask(p.key, p.b1!, 'MAX');
    return { key: p.key, count: p.count, first, last };
  });
  const answers = seen.answer();
  const time = (t: number | Asked) => (typeof t === 'number' ? t : answers[t.fn][t.index]!);
  return groupsSeen.map((g) => ({ key: g.key, count: g.count, firstSeen: time(g.first), lastSeen: time(g.last) }));
}

/** A first or last seen asked of `seenIn`, answered by `answer()`. */
interface Asked {
  readonly fn: 'MIN' | 'MAX';
  readonly index: number;
}

/**
 * The first (MIN) or last (MAX) event time of groups' alerts in one hour each, by index: asked one
 * group at a time, answered together (a field's values in one statement per MIN and MAX: a
 * statement per group costs more than its lookup).
 */
function seenIn(db: DatabaseSync, by: GroupBy) {
  const one = seenOne(db, by);
  const asked = { MIN: [] as [string | null, number][], MAX: [] as [string | null, number][] };
  const batched =
    by.kind === 'field'
      ? {
          MIN: db.prepare(`SELECT (SELECT MIN(time) FROM entities WHERE field = ? AND value = j.value ->> 0
            AND time >= j.value ->> 1 AND time < j.value ->> 2) AS t FROM json_each(?) j ORDER BY j.key`),
          MAX: db.prepare(`SELECT (SELECT MAX(time) FROM entities WHERE field = ? AND value = j.value ->> 0
            AND time >= j.value ->> 1 AND time < j.value ->> 2) AS t FROM json_each(?) j ORDER BY j.key`),
        }
      : undefined;
  return {
    ask(key: string | null, b: number, fn: 'MIN' | 'MAX'): Asked {
      asked[fn].push([key, b]);
      return { fn, index: asked[fn].length - 1 };
    },
    answer(): Record<'MIN' | 'MAX', number[]> {
      const answers = { MIN: [] as number[], MAX: [] as number[] };
      for (const fn of ['MIN', 'MAX'] as const) {
        const list = asked[fn];
        if (batched) {
          const keyed = list.flatMap(([key, b]) => (key === null ? [] : [[key, b * bucketMs, (b + 1) * bucketMs]]));
          const rows = keyed.length
            ? (batched[fn].all((by as { path: string }).path, JSON.stringify(keyed)) as { t: number }[])
            : [];
          let i = 0;
          for (const [key, b] of list) answers[fn].push(key === null ? one(key, b, fn) : rows[i++]!.t);
        } else for (const [key, b] of list) answers[fn].push(one(key, b, fn));
      }
      return answers;
    },
  };
}

/** The first (MIN) or last (MAX) event time of a group's alerts in one hour, by index. */
function seenOne(db: DatabaseSync, by: GroupBy) {
  const hour = (b: number): [number, number] => [b * bucketMs, (b + 1) * bucketMs];
  if (by.kind === 'rule') {
    const stmt = {
      MIN: db.prepare('SELECT MIN(time) AS t FROM alerts WHERE rule = ? AND time >= ? AND time < ?'),
      MAX: db.prepare('SELECT MAX(time) AS t FROM alerts WHERE rule = ? AND time >= ? AND time < ?'),
      nullMIN: db.prepare('SELECT MIN(time) AS t FROM alerts WHERE rule IS NULL AND time >= ? AND time < ?'),
      nullMAX: db.prepare('SELECT MAX(time) AS t FROM alerts WHERE rule IS NULL AND time >= ? AND time < ?'),
    };
    return (key: string | null, b: number, fn: 'MIN' | 'MAX') =>
      ((key === null ? stmt[`null${fn}`].get(...hour(b)) : stmt[fn].get(key, ...hour(b))) as { t: number }).t;
  }
  const path = jsonPath(by.path);
  const stmt = {
    MIN: db.prepare('SELECT MIN(time) AS t FROM entities WHERE field = ? AND value = ? AND time >= ? AND time < ?'),
    MAX: db.prepare('SELECT MAX(time) AS t FROM entities WHERE field = ? AND value = ? AND time >= ? AND time < ?'),
    // alerts without the field: the first (last) of the hour's alerts, walked in time order
    nullMIN: db.prepare(
      'SELECT time AS t FROM alerts WHERE time >= ? AND time < ? AND json_extract(record, ?) IS NULL ORDER BY time LIMIT 1',
    ),
    nullMAX: db.prepare(
      'SELECT time AS t FROM alerts WHERE time >= ? AND time < ? AND json_extract(record, ?) IS NULL ORDER BY time DESC LIMIT 1',
    ),
  };
  return (key: string | null, b: number, fn: 'MIN' | 'MAX') => {
    if (key !== null) return (stmt[fn].get(by.path, key, ...hour(b)) as { t: number }).t;
    // the hour holds some alert without the field when the null group's bucket count says so; walk from
    // the group's first (last) hour on until one is found
    const s = stmt[`null${fn}`];
    const found = s.get(
      ...(fn === 'MIN' ? [b * bucketMs, Number.MAX_SAFE_INTEGER] : [Number.MIN_SAFE_INTEGER, (b + 1) * bucketMs]),
      path,
    ) as { t: number } | undefined;
    return found!.t;
  };
}
