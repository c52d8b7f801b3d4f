import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  alertMetadataKey,
  severities,
  severityRank,
  type AlertGroup,
  type AlertTriage,
  type AlertView,
  type Severity,
} from '@weir/contract';
import { encodeCursor, type AlertFilter, type GroupBy } from './alert-query.ts';
import { untriaged } from './triage.ts';
import { inTransaction } from '../core/sqlite-transaction.ts';

/** A record read from a topic partition. */
export interface TopicRecord {
  readonly partition: number;
  readonly offset: number;
  readonly key?: Buffer | null;
  readonly value: Buffer | null;
}

/** Next offset to read, per partition of one topic. */
export type Positions = ReadonlyMap<number, number>;

export interface IngestResult {
  readonly stored: number;
  /** Records that are not alerts with `_alert` (not JSON, no `_alert`, a malformed one): not indexed. */
  readonly skipped: number;
}

export interface Retention {
  /** Alerts whose event time is older are deleted (0: no age limit). */
  readonly days: number;
  /** At most this many alerts are kept; the oldest by event time go first (0: no limit). */
  readonly maxCount: number;
}

interface AlertRow {
  id: string;
  time: number;
  rule: string | null;
  rule_name: string | null;
  severity: number;
  techniques: string;
  source: string;
  record: string;
  triage: string | null;
}

/** A parsed alert of the alerts topic, or undefined when the record is not one. */
interface ParsedAlert {
  id: string;
  time: number;
  rule: string | null;
  ruleName: string | null;
  severity: number;
  techniques: string[];
  source: unknown;
  record: string;
}

const idPattern = /^[0-9a-f]{32}$/;

function parseAlert(value: Buffer | null): ParsedAlert | undefined {
  if (value === null || value.length === 0) return undefined;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(value.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const meta = record[alertMetadataKey] as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { id, time, severity, techniques, source } = meta;
  if (typeof id !== 'string' || !idPattern.test(id) || typeof time !== 'number' || !Number.isFinite(time))
    return undefined;
  const rank = severityRank(String(severity));
  if (rank < 0) return undefined;
  const rule = (record._rule ?? {}) as { id?: unknown; name?: unknown };
  return {
    id,
    time: Math.trunc(time),
    rule: typeof rule.id === 'string' ? rule.id : null,
    ruleName: typeof rule.name === 'string' ? rule.name : null,
    severity: rank,
    techniques: Array.isArray(techniques) ? techniques.filter((t): t is string => typeof t === 'string') : [],
    source: source ?? null,
    record: value.toString('utf8'),
  };
}

/** `$."a"."b"` for the dotted path `a.b` (the path's characters are checked by alert-query.ts). */
const jsonPath = (dotted: string) =>
  `$.${dotted
    .split('.')
    .map((p) => `"${p}"`)
    .join('.')}`;

/**
 * A node's alert index (docs/alerts.md, "The alert store and triage"): one SQLite file (WAL,
 * owner-only) with the alerts of the alerts topic, upserted by `_alert.id`; the triage state of the
 * triage topic, kept by alert id whether or not the alert has arrived; and, per topic partition,
 * the next offset to read, written in the same transaction as the rows it follows, so that a node
 * killed at any point resumes where its last transaction ended: no alert lost, none doubled.
 */
export class AlertIndex {
  readonly #db: DatabaseSync;
  readonly #retention: Retention;
  readonly #upsertAlert: StatementSync;
  readonly #upsertTriage: StatementSync;
  readonly #syncTriage: StatementSync;
  readonly #setPosition: StatementSync;
  readonly #selectTriage: StatementSync;

  constructor(location: string, retention: Retention) {
    mkdirSync(location, { recursive: true, mode: 0o700 });
    const file = path.join(location, 'alerts.db');
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    this.#retention = retention;
    this.#db = new DatabaseSync(file);
    this.#db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS alerts (
        id TEXT PRIMARY KEY, time INTEGER NOT NULL, rule TEXT, rule_name TEXT, severity INTEGER NOT NULL,
        techniques TEXT NOT NULL, source TEXT NOT NULL, record TEXT NOT NULL,
        status TEXT NOT NULL, assignee TEXT);
      CREATE INDEX IF NOT EXISTS alerts_time ON alerts (time, id);
      CREATE INDEX IF NOT EXISTS alerts_rule ON alerts (rule, time);
      CREATE INDEX IF NOT EXISTS alerts_severity ON alerts (severity, time);
      CREATE INDEX IF NOT EXISTS alerts_status ON alerts (status, time);
      CREATE INDEX IF NOT EXISTS alerts_assignee ON alerts (assignee, time);
      CREATE TABLE IF NOT EXISTS triage (id TEXT PRIMARY KEY, value TEXT NOT NULL, offset INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS positions (
        topic TEXT NOT NULL, partition INTEGER NOT NULL, next INTEGER NOT NULL, PRIMARY KEY (topic, partition));`);
    // A record with an id already stored replaces it (a later update of the same alert wins); its triage stays.
    this.#upsertAlert = this.#db.prepare(`INSERT INTO alerts
      (id, time, rule, rule_name, severity, techniques, source, record, status, assignee)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?,
        COALESCE((SELECT json_extract(value, '$.status') FROM triage WHERE id = ?1), 'new'),
        (SELECT json_extract(value, '$.assignee') FROM triage WHERE id = ?1))
      ON CONFLICT (id) DO UPDATE SET time = excluded.time, rule = excluded.rule, rule_name = excluded.rule_name,
        severity = excluded.severity, techniques = excluded.techniques, source = excluded.source,
        record = excluded.record`);
    this.#upsertTriage = this.#db.prepare(`INSERT INTO triage (id, value, offset) VALUES (?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET value = excluded.value, offset = excluded.offset
      WHERE excluded.offset > triage.offset`);
    this.#syncTriage = this.#db.prepare('UPDATE alerts SET status = ?, assignee = ? WHERE id = ?');
    this.#setPosition = this.#db.prepare(`INSERT INTO positions (topic, partition, next) VALUES (?, ?, ?)
      ON CONFLICT (topic, partition) DO UPDATE SET next = excluded.next`);
    this.#selectTriage = this.#db.prepare('SELECT value, offset FROM triage WHERE id = ?');
    this.prune();
  }

  /** Next offset to read per partition of `topic` (absent: from the partition's start). */
  positions(topic: string): Map<number, number> {
    const rows = this.#db.prepare('SELECT partition, next FROM positions WHERE topic = ?').all(topic) as {
      partition: number;
      next: number;
    }[];
    return new Map(rows.map((r) => [r.partition, r.next]));
  }

  /**
   * Indexes records of the alerts topic and moves `topic`'s positions to `next`, in one
   * transaction. Records that are not alerts with `_alert` are counted as skipped, not stored.
   */
  ingest(topic: string, records: readonly TopicRecord[], next: Positions): IngestResult {
    let stored = 0;
    let skipped = 0;
    this.#transaction(() => {
      for (const r of records) {
        const a = parseAlert(r.value);
        if (!a) {
          skipped++;
          continue;
        }
        this.#upsertAlert.run(
          a.id,
          a.time,
          a.rule,
          a.ruleName,
          a.severity,
          JSON.stringify(a.techniques),
          JSON.stringify(a.source),
          a.record,
        );
        stored++;
      }
      this.#savePositions(topic, next);
    });
    return { stored, skipped };
  }

  /**
   * Applies triage records (key = alert id) read at `offset`: each replaces the alert's triage
   * unless one from a later offset is stored already; with `topic` and `next`, the topic's positions
   * move in the same transaction. Triage of an alert not stored yet is kept for when it arrives.
   */
  applyTriage(
    entries: readonly { id: string; triage: AlertTriage; offset: number }[],
    topic?: string,
    next?: Positions,
  ) {
    this.#transaction(() => {
      for (const e of entries) {
        const changed = this.#upsertTriage.run(e.id, JSON.stringify(e.triage), e.offset).changes > 0;
        if (changed) this.#syncTriage.run(e.triage.status, e.triage.assignee, e.id);
      }
      if (topic !== undefined && next !== undefined) this.#savePositions(topic, next);
    });
  }

  /** An alert's triage (untouched: `new`, nothing else). */
  triageOf(id: string): AlertTriage {
    const row = this.#selectTriage.get(id) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as AlertTriage) : untriaged;
  }

  get(id: string): AlertView | undefined {
    const row = this.#db
      .prepare(`SELECT a.*, t.value AS triage FROM alerts a LEFT JOIN triage t ON t.id = a.id WHERE a.id = ?`)
      .get(id) as AlertRow | undefined;
    return row ? view(row) : undefined;
  }

  /** The alerts stored among `ids`. */
  has(ids: readonly string[]): Set<string> {
    const stmt = this.#db.prepare('SELECT 1 FROM alerts WHERE id = ?');
    return new Set(ids.filter((id) => stmt.get(id) !== undefined));
  }

  count(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM alerts').get() as { n: number }).n;
  }

  /** A page of alerts, newest first (event time, then id), and the cursor of the next page, if any. */
  list(filter: AlertFilter): { alerts: AlertView[]; nextCursor: string | null } {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const add = (clause: string, ...values: SQLInputValue[]) => {
      where.push(clause);
      args.push(...values);
    };
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    if (filter.from !== undefined) add('a.time >= ?', filter.from);
    if (filter.to !== undefined) add('a.time <= ?', filter.to);
    if (filter.rule !== undefined) add('a.rule = ?', filter.rule);
    // `+`: severity and status are checked on the rows, not looked up by their indexes (a few values
    // over many rows: their index would make SQLite sort every row of a severity to find the newest
    // 100; walking the time or rule index newest first finds them after a few hundred rows)
    if (filter.severities) add(`+a.severity IN (${marks(filter.severities.length)})`, ...filter.severities);
    if (filter.statuses) add(`+a.status IN (${marks(filter.statuses.length)})`, ...filter.statuses);
    if (filter.assignee !== undefined) add('a.assignee = ?', filter.assignee);
    if (filter.techniques)
      add(
        `EXISTS (SELECT 1 FROM json_each(a.techniques) WHERE value IN (${marks(filter.techniques.length)}))`,
        ...filter.techniques,
      );
    if (filter.text !== undefined) add('instr(lower(a.record), lower(?)) > 0', filter.text);
    for (const [p, value] of filter.fields ?? [])
      add('CAST(json_extract(a.record, ?) AS TEXT) = ?', jsonPath(p), value);
    if (filter.after)
      add('(a.time < ? OR (a.time = ? AND a.id < ?))', filter.after.time, filter.after.time, filter.after.id);
    const rows = this.#db
      .prepare(
        `SELECT a.*, t.value AS triage FROM alerts a LEFT JOIN triage t ON t.id = a.id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.time DESC, a.id DESC LIMIT ?`,
      )
      .all(...args, filter.limit + 1) as unknown as AlertRow[];
    const page = rows.slice(0, filter.limit).map(view);
    const last = page.at(-1);
    return {
      alerts: page,
      nextCursor: rows.length > filter.limit && last ? encodeCursor({ time: last.time, id: last.id }) : null,
    };
  }

  /** Counts by rule or by a field's value over the time range, with first and last seen; largest first (1000 at most). */
  groups(by: GroupBy, range: { from?: number; to?: number }): AlertGroup[] {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const key = by.kind === 'rule' ? 'rule' : 'CAST(json_extract(record, ?) AS TEXT)';
    if (by.kind === 'field') args.push(jsonPath(by.path));
    if (range.from !== undefined) {
      where.push('time >= ?');
      args.push(range.from);
    }
    if (range.to !== undefined) {
      where.push('time <= ?');
      args.push(range.to);
    }
    return this.#db
      .prepare(
        `SELECT ${key} AS key, COUNT(*) AS count, MIN(time) AS firstSeen, MAX(time) AS lastSeen FROM alerts
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} GROUP BY 1 ORDER BY count DESC, key LIMIT 1000`,
      )
      .all(...args) as unknown as AlertGroup[];
  }

  /**
   * Retention: deletes the alerts older than the age limit (by event time) and the oldest beyond the
   * count limit, and triage records older than the age limit whose alert is gone. Returns the alerts deleted.
   */
  prune(now = Date.now()): number {
    let deleted = 0;
    this.#transaction(() => {
      if (this.#retention.days > 0) {
        const cutoff = now - this.#retention.days * 24 * 3600 * 1000;
        deleted += Number(this.#db.prepare('DELETE FROM alerts WHERE time < ?').run(cutoff).changes);
        this.#db
          .prepare(
            `DELETE FROM triage WHERE json_extract(value, '$.updatedAt') < ? AND id NOT IN (SELECT id FROM alerts)`,
          )
          .run(cutoff);
      }
      if (this.#retention.maxCount > 0)
        deleted += Number(
          this.#db
            .prepare(
              'DELETE FROM alerts WHERE id IN (SELECT id FROM alerts ORDER BY time DESC, id DESC LIMIT -1 OFFSET ?)',
            )
            .run(this.#retention.maxCount).changes,
        );
    });
    return deleted;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #savePositions(topic: string, next: Positions): void {
    for (const [partition, offset] of next) this.#setPosition.run(topic, partition, offset);
  }

  #transaction<T>(work: () => T): T {
    return inTransaction(this.#db, work);
  }
}

function view(row: AlertRow): AlertView {
  const triage = row.triage ? (JSON.parse(row.triage) as AlertTriage) : untriaged;
  return {
    id: row.id,
    time: row.time,
    rule: { id: row.rule, name: row.rule_name },
    severity: severities[row.severity] as Severity,
    techniques: JSON.parse(row.techniques) as string[],
    source: JSON.parse(row.source) as AlertView['source'],
    ...triage,
    record: JSON.parse(row.record) as Record<string, unknown>,
  };
}
