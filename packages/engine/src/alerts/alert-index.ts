import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  readAlert,
  severities,
  severityRank,
  type AlertGroup,
  type AlertTriage,
  type AlertView,
  type Severity,
} from '@weir/contract';
import { encodeCursor, type AlertFilter, type GroupBy } from './alert-query.ts';
import { alertEntities, indexablePath } from './alert-entities.ts';
import { countedGroups, groupKey, jsonPath, maxGroups } from './alert-groups.ts';
import { alertSchemaVersion, bucketMs, createAlertSchema } from './alert-schema.ts';
import { likeText, wordMatch } from './alert-text.ts';
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
  techniques: readonly string[];
  source: unknown;
  record: string;
  /** The parsed record. */
  object: Record<string, unknown>;
}

/**
 * Whether an alert is silenced now (docs/alerts.md, "Silences"): the silences change over time, so
 * `silenced=` is checked as a query runs, on its rows. `any` false: no silence exists.
 */
export interface SilencedTest {
  readonly any: boolean;
  readonly test: (record: Record<string, unknown>, time: number) => boolean;
}

/** An alerts-topic record's value as the index stores it; undefined for a record that is no alert (`readAlert`). */
function parseAlert(value: Buffer | null): ParsedAlert | undefined {
  if (value === null || value.length === 0) return undefined;
  const text = value.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const alert = readAlert(parsed);
  if (typeof alert === 'string') return undefined;
  return {
    id: alert.id,
    time: alert.time,
    rule: alert.rule.id,
    ruleName: alert.rule.name,
    severity: severityRank(alert.severity),
    techniques: alert.techniques,
    source: alert.source,
    record: text,
    object: alert.record,
  };
}

/**
 * Text filters matching more alerts than this walk the time index (finding the newest soon) instead
 * of being driven by the text index: a text index candidate costs about ten times a walked row
 * (fetched by rowid, then sorted by time), and the walk finds a page of 100 after 100 × alerts /
 * matches rows; up to `denseText` matches each walked row's rowid is first looked up in the text
 * index's candidates, so only the rows that hold the words are read (1M alerts, a text in 5,000:
 * 1.7 ms a page instead of 8.6).
 */
const commonText = 2_000;
/** Entity rows per INSERT statement (4 values each). */
const entityChunk = 64;
/** The order of the entities table's key: field, value, time, rowid. */
function compareEntityRows(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
/** The text index's in-memory word buffer (FTS5 `hashsize`): a fetch's alerts fit in it. */
const textHashBytes = 16 * 1024 * 1024;
/** Text filters matching more alerts than this walk the time index alone: a page is found after a few rows each. */
const denseText = 50_000;

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
  readonly #insertAlert: StatementSync;
  readonly #upsertAlert: StatementSync;
  readonly #upsertTriage: StatementSync;
  readonly #syncTriage: StatementSync;
  readonly #setPosition: StatementSync;
  readonly #selectTriage: StatementSync;
  readonly #addTexts: StatementSync;
  readonly #addEntities: StatementSync;
  readonly #addEntityChunk: StatementSync;
  readonly #addNumbers: StatementSync;
  readonly #addUnindexed: StatementSync;
  readonly #addCounts: StatementSync;
  readonly #addRuleCounts: StatementSync;
  readonly #dataVersion: StatementSync;
  readonly #selectUnindexed: StatementSync;
  /** `PRAGMA data_version` when `#unindexed` was last read from the file (another connection's commit changes it). */
  #seenVersion = -1;
  /** Rows of the batch being ingested, written by `#flush`: the alerts' rowids (their words), ... */
  #texts: number[] = [];
  /** ... their entity rows [field, text, time, rowid], ... */
  #entities: (string | number)[][] = [];
  /** ... their number fields [field, JSON path, rowid] (the text is SQLite's), ... */
  #numbers: (string | number)[][] = [];
  /** ... the alerts added per number field, hour and value (`field \0 hour \0 value`; the text fields' are counted by `#writeEntities`), ... */
  readonly #counts = new Map<string, number>();
  /** ... and per hour and rule key (`hour \0 key`). */
  readonly #ruleCounts = new Map<string, number>();
  /** Paths that ever held a value the entity index does not keep (alert-entities.ts). */
  readonly #unindexed = new Set<string>();
  #silenced: SilencedTest | undefined;

  /**
   * `prune: false`: no retention pass on opening (the alert writer thread's connection: the node's
   * main connection made one as it opened the file).
   */
  constructor(location: string, retention: Retention, options: { prune?: boolean } = {}) {
    mkdirSync(location, { recursive: true, mode: 0o700 });
    const file = path.join(location, 'alerts.db');
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    this.#retention = retention;
    this.#db = new DatabaseSync(file);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    // 64 MiB of page cache (default 2): the entity index's insert points (one per field value) stay in
    // memory; a checkpoint every 64 MiB of WAL (default 4): the pages every batch rewrites (the ends of
    // the time index, of each entity value, the counts) are copied to the file once per checkpoint
    // instead of once per few batches (about a tenth less CPU per alert, bench/alert-index.ts)
    this.#db.exec('PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 16384');
    const version = (this.#db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    // versions 1 and 2 had indexes on severity and status no query used, and time and rule indexes
    // without severity and status (rebuilt here); version 2 counted each new
    // alert's rule by trigger and removed entity rows by an index of rowids
    if (version > 0 && version < 3)
      this.#db.exec(`DROP INDEX IF EXISTS alerts_severity; DROP INDEX IF EXISTS alerts_status;
        DROP INDEX IF EXISTS alerts_time; DROP INDEX IF EXISTS alerts_rule;`);
    if (version === 2)
      this.#db.exec(`DROP TRIGGER IF EXISTS alerts_added; DROP TRIGGER IF EXISTS alerts_removed;
        DROP TRIGGER IF EXISTS alerts_replaced; DROP INDEX IF EXISTS entities_rid;
`);
    // up to version 3 the assignee index held every alert, assigned or not (rebuilt partial here)
    if (version > 0 && version < 4) this.#db.exec('DROP INDEX IF EXISTS alerts_assignee');
    createAlertSchema(this.#db);
    // the text index keeps up to 16 MiB of a transaction's words in memory (default 1 MiB): a batch
    // of alerts becomes one segment at its commit instead of a few, so fewer segments to merge
    // later (half the text index's time per alert, bench/alert-index.ts); a setting of the file
    const hash = this.#db.prepare(`SELECT v FROM alerts_text_config WHERE k = 'hashsize'`).get() as
      { v: number } | undefined;
    if (hash?.v !== textHashBytes)
      this.#db.exec(`INSERT INTO alerts_text (alerts_text, rank) VALUES ('hashsize', ${textHashBytes})`);
    this.#db.function('weir_silenced', { deterministic: false, directOnly: true }, (record, time) =>
      this.#silenced!.test(JSON.parse(record as string) as Record<string, unknown>, Number(time)) ? 1 : 0,
    );
    // A new alert is inserted; a record with an id already stored replaces it (a later update of the
    // same alert wins); its triage stays. RETURNING costs as much as the insert: only the rare replacement uses it.
    this.#insertAlert = this.#db.prepare(`INSERT INTO alerts
      (id, time, rule, rule_name, severity, techniques, source, record, status, assignee)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?,
        COALESCE((SELECT json_extract(value, '$.status') FROM triage WHERE id = ?1), 'new'),
        (SELECT json_extract(value, '$.assignee') FROM triage WHERE id = ?1))
      ON CONFLICT (id) DO NOTHING`);
    this.#upsertAlert = this.#db.prepare(`INSERT INTO alerts
      (id, time, rule, rule_name, severity, techniques, source, record, status, assignee)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?,
        COALESCE((SELECT json_extract(value, '$.status') FROM triage WHERE id = ?1), 'new'),
        (SELECT json_extract(value, '$.assignee') FROM triage WHERE id = ?1))
      ON CONFLICT (id) DO UPDATE SET time = excluded.time, rule = excluded.rule, rule_name = excluded.rule_name,
        severity = excluded.severity, techniques = excluded.techniques, source = excluded.source,
        record = excluded.record
      RETURNING rowid`);
    // a batch's rows in one statement each (a JSON array of rows): a statement per row costs more than its row
    this.#addTexts = this.#db.prepare(`INSERT INTO alerts_text (rowid, record)
      SELECT a.rowid, a.record FROM json_each(?) j CROSS JOIN alerts a WHERE a.rowid = j.value`);
    // the rest of a batch's entity rows, in key order (#writeEntities)
    this.#addEntities = this.#db.prepare(`INSERT INTO entities (field, value, time, rid)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) ORDER BY 1, 2, 3, 4`);
    this.#addEntityChunk = this.#db.prepare(
      `INSERT INTO entities (field, value, time, rid) VALUES ${Array.from({ length: entityChunk }, () => '(?, ?, ?, ?)').join(', ')}`,
    );
    this.#addNumbers = this.#db.prepare(`INSERT INTO entities (field, value, time, rid)
      SELECT j.value ->> 0, CAST(json_extract(a.record, j.value ->> 1) AS TEXT), a.time, a.rowid
      FROM json_each(?) j CROSS JOIN alerts a WHERE a.rowid = j.value ->> 2 RETURNING field, value, time`);
    this.#addCounts = this.#db.prepare(`INSERT INTO entity_counts (field, bucket, value, n)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) WHERE true
      ON CONFLICT DO UPDATE SET n = n + excluded.n`);
    this.#addRuleCounts = this.#db.prepare(`INSERT INTO rule_counts (bucket, rule, n)
      SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
      ON CONFLICT DO UPDATE SET n = n + excluded.n`);
    this.#addUnindexed = this.#db.prepare('INSERT OR IGNORE INTO entity_unindexed (path) VALUES (?)');
    this.#dataVersion = this.#db.prepare('PRAGMA data_version');
    this.#selectUnindexed = this.#db.prepare('SELECT path FROM entity_unindexed');
    this.#refreshUnindexed();
    this.#upsertTriage = this.#db.prepare(`INSERT INTO triage (id, value, offset) VALUES (?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET value = excluded.value, offset = excluded.offset
      WHERE excluded.offset > triage.offset`);
    this.#syncTriage = this.#db.prepare('UPDATE alerts SET status = ?, assignee = ? WHERE id = ?');
    this.#setPosition = this.#db.prepare(`INSERT INTO positions (topic, partition, next) VALUES (?, ?, ?)
      ON CONFLICT (topic, partition) DO UPDATE SET next = excluded.next`);
    this.#selectTriage = this.#db.prepare('SELECT value, offset FROM triage WHERE id = ?');
    if (version < alertSchemaVersion) this.#upgrade(version);
    if (options.prune !== false) this.prune();
  }

  /**
   * Reads the unindexed paths again when another connection (the alert writer thread's) committed
   * since they were last read: its ingest may have added one, and the entity index must not answer
   * for that path then. This connection's own additions are in the set already.
   */
  #refreshUnindexed(): void {
    const version = (this.#dataVersion.get() as { data_version: number }).data_version;
    if (version === this.#seenVersion) return;
    this.#seenVersion = version;
    for (const row of this.#selectUnindexed.all()) this.#unindexed.add((row as { path: string }).path);
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
        const row = [
          a.id,
          a.time,
          a.rule,
          a.ruleName,
          a.severity,
          JSON.stringify(a.techniques),
          JSON.stringify(a.source),
          a.record,
        ] as const;
        const added = this.#insertAlert.run(...row);
        let rowid: number;
        if (added.changes > 0) {
          rowid = Number(added.lastInsertRowid);
          this.#countRule(a.time, a.rule);
        } else {
          // replaced: its trigger moves its rule count and removes its rows, which must be written by then
          this.#flush();
          rowid = (this.#upsertAlert.get(...row) as { rowid: number }).rowid;
        }
        this.#indexRow(rowid, a.time, a.object);
        stored++;
      }
      this.#flush();
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

  /**
   * A page of alerts, newest first (event time, then id), and the cursor of the next page, if any.
   * `silenced` checks `filter.silenced` (without it, that filter is refused).
   */
  list(filter: AlertFilter, silenced?: SilencedTest): { alerts: AlertView[]; nextCursor: string | null } {
    this.#refreshUnindexed();
    const q = this.#where(filter, silenced, true);
    if (filter.after)
      q.add(
        `${q.time} <= ? AND (${q.time} < ? OR (${q.time} = ? AND a.id < ?))`,
        filter.after.time,
        filter.after.time,
        filter.after.time,
        filter.after.id,
      );
    const rows = this.#withSilenced(silenced, () =>
      this.#db
        .prepare(
          `SELECT a.*, t.value AS triage FROM ${q.from} LEFT JOIN triage t ON t.id = a.id
           ${q.sql()} ORDER BY ${q.time} DESC, a.id DESC LIMIT ?`,
        )
        .all(...q.args, filter.limit + 1),
    ) as unknown as AlertRow[];
    const page = rows.slice(0, filter.limit).map(view);
    const last = page.at(-1);
    return {
      alerts: page,
      nextCursor: rows.length > filter.limit && last ? encodeCursor({ time: last.time, id: last.id }) : null,
    };
  }

  /**
   * Counts by rule or by a field's value over the alerts the filter keeps (its `limit` and cursor
   * aside), with first and last seen; largest first, then by key (1000 at most). With only a time
   * range (or none) and a rule or an indexed field, the hourly counts answer (alert-groups.ts).
   */
  groups(by: GroupBy, filter: Omit<AlertFilter, 'limit' | 'after'>, silenced?: SilencedTest): AlertGroup[] {
    this.#refreshUnindexed();
    const { from, to, ...others } = filter;
    const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
    if (Object.keys(others).length === 0 && (by.kind === 'rule' || this.#indexed(by.path))) {
      const counted = countedGroups(this.#db, by, range);
      if (counted) return counted;
    }
    const q = this.#where(filter, silenced, false);
    const key = groupKey(by);
    return this.#withSilenced(silenced, () =>
      this.#db
        .prepare(
          `SELECT ${key.sql} AS key, COUNT(*) AS count, MIN(a.time) AS firstSeen, MAX(a.time) AS lastSeen
           FROM ${q.from} ${q.sql()} GROUP BY 1 ORDER BY count DESC, key LIMIT ${maxGroups}`,
        )
        .all(...key.args, ...q.args),
    ) as unknown as AlertGroup[];
  }

  /**
   * The FROM and WHERE of a filter. `ordered`: the list, newest first with a LIMIT: an indexed field
   * filter then walks its entity rows in time order (alert `a` joined to them), a text filter
   * matching many alerts walks the time index instead of its own.
   */
  #where(filter: Omit<AlertFilter, 'limit'>, silenced: SilencedTest | undefined, ordered: boolean) {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const add = (clause: string, ...values: SQLInputValue[]) => {
      where.push(clause);
      args.push(...values);
    };
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    let from = 'alerts a';
    let time = 'a.time';
    const fields = [...(filter.fields ?? [])];
    const driver = ordered ? fields.findIndex(([p]) => this.#indexed(p)) : -1;
    if (driver >= 0) {
      // the entity rows of the field's value, newest first, lead; the alert is found by its rowid
      const [p, value] = fields.splice(driver, 1)[0]!;
      from = 'entities e CROSS JOIN alerts a';
      time = 'e.time';
      add('e.field = ? AND e.value = ? AND a.rowid = e.rid', p, value);
    }
    if (filter.from !== undefined) add(`${time} >= ?`, filter.from);
    if (filter.to !== undefined) add(`${time} <= ?`, filter.to);
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
    for (const [p, value] of fields) {
      if (this.#indexed(p)) add('a.rowid IN (SELECT rid FROM entities WHERE field = ? AND value = ?)', p, value);
      else add('CAST(json_extract(a.record, ?) AS TEXT) = ?', jsonPath(p), value);
    }
    if (filter.text !== undefined) {
      const match = wordMatch(filter.text);
      // the text index finds the candidates; the scan's test decides (alert-text.ts)
      const matches = match === undefined || !ordered || driver >= 0 ? 0 : this.#matches(match);
      if (matches > denseText) {
        // dense: walking the time index finds a page after a few rows each
      } else if (matches > commonText) {
        // common: the time index is walked newest first, each row's rowid looked up in the text
        // index's candidates (built once per query) before the row itself is read
        from = 'alerts a INDEXED BY alerts_time';
        add('a.rowid IN (SELECT rowid FROM alerts_text WHERE alerts_text MATCH ?)', match!);
      } else if (match !== undefined)
        add('a.rowid IN (SELECT rowid FROM alerts_text WHERE alerts_text MATCH ?)', match);
      add(`a.record LIKE ? ESCAPE '\\'`, likeText(filter.text));
    }
    if (filter.silenced !== undefined) {
      if (!silenced) throw new Error('AlertIndex: a silenced filter needs the silences');
      if (!silenced.any) {
        if (filter.silenced) add('0');
      } else add(`weir_silenced(a.record, a.time) = ?`, filter.silenced ? 1 : 0);
    }
    return {
      from,
      time,
      args,
      add,
      sql: () => (where.length ? `WHERE ${where.join(' AND ')}` : ''),
    };
  }

  /** How many records a text query's words are in, counted up to `denseText + 1`. */
  #matches(match: string): number {
    const row = this.#db
      .prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM alerts_text WHERE alerts_text MATCH ? LIMIT ${denseText + 1})`)
      .get(match) as { n: number };
    return row.n;
  }

  /** Whether `field.<path>` is answered by the entity index (alert-entities.ts). */
  #indexed(path: string): boolean {
    return indexablePath(path) && !this.#unindexed.has(path);
  }

  #withSilenced<T>(silenced: SilencedTest | undefined, work: () => T): T {
    this.#silenced = silenced;
    try {
      return work();
    } finally {
      this.#silenced = undefined;
    }
  }

  /** The text and entity rows of an alert row (new, or replaced: the trigger removed its old ones), for `#flush`. */
  #indexRow(rowid: number, time: number, record: Record<string, unknown>): void {
    this.#texts.push(rowid);
    const entities = alertEntities(record);
    for (const [p, value] of entities.texts) this.#entities.push([p, value, time, rowid]);
    for (const p of entities.numbers) this.#numbers.push([p, jsonPath(p), rowid]);
    for (const p of entities.unindexed)
      if (!this.#unindexed.has(p)) {
        this.#addUnindexed.run(p);
        this.#unindexed.add(p);
      }
  }

  #count(field: string, hour: number, value: string, n: number): void {
    const key = `${field}\0${hour}\0${value}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + n);
  }

  /** One more alert of a rule in an hour (a replacement's count moves by trigger instead). */
  #countRule(time: number, rule: string | null): void {
    const key = `${Math.floor(time / bucketMs)}\0${rule === null ? '' : `=${rule}`}`;
    this.#ruleCounts.set(key, (this.#ruleCounts.get(key) ?? 0) + 1);
  }

  /**
   * Writes the rows gathered by `#indexRow` and `#countRule`: the words, the entity rows and the
   * counts, one statement each (removals are counted by triggers).
   */
  #flush(): void {
    if (this.#texts.length > 0) this.#addTexts.run(JSON.stringify(this.#texts));
    const counted = this.#entities.length > 0 ? this.#writeEntities() : [];
    if (this.#numbers.length > 0)
      for (const r of this.#addNumbers.all(JSON.stringify(this.#numbers)) as {
        field: string;
        value: string;
        time: number;
      }[])
        this.#count(r.field, Math.floor(r.time / bucketMs), r.value, 1);
    this.#texts = [];
    this.#entities = [];
    this.#numbers = [];
    if (counted.length > 0 || this.#counts.size > 0) {
      const rows = counted;
      for (const [key, n] of this.#counts) {
        const a = key.indexOf('\0');
        const b = key.indexOf('\0', a + 1);
        rows.push([key.slice(0, a), Number(key.slice(a + 1, b)), key.slice(b + 1), n]);
      }
      this.#addCounts.run(JSON.stringify(rows));
      this.#counts.clear();
    }
    if (this.#ruleCounts.size > 0) {
      const rows = [];
      for (const [key, n] of this.#ruleCounts) {
        const a = key.indexOf('\0');
        rows.push([Number(key.slice(0, a)), key.slice(a + 1), n]);
      }
      this.#addRuleCounts.run(JSON.stringify(rows));
      this.#ruleCounts.clear();
    }
  }

  /**
   * The batch's entity rows in key order (the rows of one field value go in one after the other,
   * down one path of the B-tree, instead of to a thousand places in turn), `entityChunk` rows a
   * statement with their values bound (no JSON written and read back); the rest through `json_each`.
   * Returns their counts, `[field, hour, value, n]`: in key order the rows of a field value and hour
   * are next to each other, so counting them is one pass, no key built per row.
   */
  #writeEntities(): (string | number)[][] {
    const rows = this.#entities;
    rows.sort(compareEntityRows);
    const counts: (string | number)[][] = [];
    let run: (string | number)[] | undefined;
    for (const r of rows) {
      const hour = Math.floor((r[2] as number) / bucketMs);
      if (run !== undefined && run[1] === hour && run[2] === r[1] && run[0] === r[0]) (run[3] as number)++;
      else counts.push((run = [r[0]!, hour, r[1]!, 1]));
    }
    const whole = rows.length - (rows.length % entityChunk);
    const args: (string | number)[] = new Array(entityChunk * 4);
    for (let i = 0; i < whole; i += entityChunk) {
      for (let j = 0; j < entityChunk; j++) {
        const r = rows[i + j]!;
        args[j * 4] = r[0]!;
        args[j * 4 + 1] = r[1]!;
        args[j * 4 + 2] = r[2]!;
        args[j * 4 + 3] = r[3]!;
      }
      this.#addEntityChunk.run(...args);
    }
    if (whole < rows.length) this.#addEntities.run(JSON.stringify(rows.slice(whole)));
    return counts;
  }

  /** An index of version 1: its alerts get their text, entity and count rows (version 2 has them). */
  #upgrade(version: number): void {
    this.#transaction(() => {
      if (version < 2 && (version > 0 || this.count() > 0)) {
        this.#db.exec(`DELETE FROM rule_counts; DELETE FROM entities; DELETE FROM entity_counts;
          DELETE FROM alerts_text; DELETE FROM entity_unindexed;
          INSERT INTO rule_counts (bucket, rule, n)
            SELECT CAST(floor(time / 3600000.0) AS INTEGER), ifnull('=' || rule, ''), COUNT(*) FROM alerts GROUP BY 1, 2;`);
        this.#unindexed.clear();
        for (const row of this.#db.prepare('SELECT rowid, time, record FROM alerts').iterate()) {
          const r = row as { rowid: number; time: number; record: string };
          this.#indexRow(r.rowid, r.time, JSON.parse(r.record) as Record<string, unknown>);
        }
        this.#flush();
      }
      this.#db.exec(`PRAGMA user_version = ${alertSchemaVersion}`);
    });
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
