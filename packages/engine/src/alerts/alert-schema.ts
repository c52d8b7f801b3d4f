import type { DatabaseSync } from 'node:sqlite';

/** The bucket of the pre-counted groups: one hour of event time. */
export const bucketMs = 3_600_000;
/** The hour of an event time (an integer): floor division, also for times before 1970. */
const bucket = (time: string) => `((${time} - ((${time} % ${bucketMs}) + ${bucketMs}) % ${bucketMs}) / ${bucketMs})`;
/** The key of `rule_counts`: '' for an alert without a rule id, '=' and the id otherwise. */
const ruleKey = (rule: string) => `ifnull('=' || ${rule}, '')`;
/**
 * The entity rows of the alert `old`, by key: every scalar of its record is a candidate (path and
 * text as alert-entities.ts writes them); those that are not in the index miss. No index by rowid
 * to keep up at ingest.
 */
const removeEntities = `DELETE FROM entities WHERE (field, value, time, rid) IN (
        SELECT substr(fullkey, 3), CAST(value AS TEXT), old.time, old.rowid FROM json_tree(old.record)
        WHERE type NOT IN ('object', 'array'));`;

/**
 * The alert index's tables (docs/alerts.md, "The alert store and triage"), version 4:
 * - `alerts`: one row per alert (upserted by id), with indexes on time, rule and assignee (of the
 *   assigned alerts only: a new alert has none, and only `assignee=<name>` asks it); severity and
 *   status are tested on the entries the time or rule index walks (they carry both: no row is read
 *   for an alert they leave out), not looked up by an index of their own (a few values over many rows);
 * - `entities`: the indexed fields of each alert (alert-entities.ts) by field, value and time;
 *   `entity_unindexed`: the paths that ever held a value the index does not keep (queries of them scan);
 * - `alerts_text`: the words of every record in an FTS5 table (alert-text.ts), by the alert's rowid;
 * - `rule_counts` and `entity_counts`: the alerts per hour of event time and rule, and per hour,
 *   field and value, kept as rows come and go (upserts, retention), for the groups: added by the
 *   ingest (a batch at a time), moved and removed by triggers (replacements, deletes);
 * - `triage` and `positions`, as before.
 * The triggers keep every derived table equal to what `alerts` holds; the index's ingest writes the
 * entity and text rows of a new or replaced alert after its row.
 */
export function createAlertSchema(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS alerts (
      id TEXT PRIMARY KEY, time INTEGER NOT NULL, rule TEXT, rule_name TEXT, severity INTEGER NOT NULL,
      techniques TEXT NOT NULL, source TEXT NOT NULL, record TEXT NOT NULL,
      status TEXT NOT NULL, assignee TEXT);
    CREATE INDEX IF NOT EXISTS alerts_time ON alerts (time, id, severity, status);
    CREATE INDEX IF NOT EXISTS alerts_rule ON alerts (rule, time, severity, status);
    CREATE INDEX IF NOT EXISTS alerts_assignee ON alerts (assignee, time) WHERE assignee IS NOT NULL;
    CREATE TABLE IF NOT EXISTS triage (id TEXT PRIMARY KEY, value TEXT NOT NULL, offset INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS positions (
      topic TEXT NOT NULL, partition INTEGER NOT NULL, next INTEGER NOT NULL, PRIMARY KEY (topic, partition));
    CREATE TABLE IF NOT EXISTS entities (field TEXT NOT NULL, value TEXT NOT NULL, time INTEGER NOT NULL,
      rid INTEGER NOT NULL, PRIMARY KEY (field, value, time, rid)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS entity_unindexed (path TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS alerts_text USING fts5 (record, content = '', contentless_delete = 1,
      tokenize = 'unicode61', detail = 'none');
    CREATE TABLE IF NOT EXISTS rule_counts (bucket INTEGER NOT NULL, rule TEXT NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (bucket, rule)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS entity_counts (field TEXT NOT NULL, bucket INTEGER NOT NULL, value TEXT NOT NULL,
      n INTEGER NOT NULL, PRIMARY KEY (field, bucket, value)) WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS alerts_removed AFTER DELETE ON alerts BEGIN
      UPDATE rule_counts SET n = n - 1 WHERE bucket = ${bucket('old.time')} AND rule = ${ruleKey('old.rule')};
      DELETE FROM rule_counts WHERE bucket = ${bucket('old.time')} AND rule = ${ruleKey('old.rule')} AND n <= 0;
      ${removeEntities}
      DELETE FROM alerts_text WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS alerts_replaced AFTER UPDATE OF time, rule, record ON alerts BEGIN
      UPDATE rule_counts SET n = n - 1 WHERE bucket = ${bucket('old.time')} AND rule = ${ruleKey('old.rule')};
      DELETE FROM rule_counts WHERE bucket = ${bucket('old.time')} AND rule = ${ruleKey('old.rule')} AND n <= 0;
      INSERT INTO rule_counts (bucket, rule, n) VALUES (${bucket('new.time')}, ${ruleKey('new.rule')}, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
      ${removeEntities}
      DELETE FROM alerts_text WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS entities_removed AFTER DELETE ON entities BEGIN
      UPDATE entity_counts SET n = n - 1
        WHERE field = old.field AND bucket = ${bucket('old.time')} AND value = old.value;
      DELETE FROM entity_counts
        WHERE field = old.field AND bucket = ${bucket('old.time')} AND value = old.value AND n <= 0;
    END;`);
}

/**
 * The schema version this code writes (`PRAGMA user_version`); 1 had no entity, text or count tables,
 * 2 counted new alerts by trigger and had an index of entity rows by alert rowid; both had (unused)
 * indexes on severity and status, and time and rule indexes without them; 1–3 had every alert in the
 * assignee index.
 */
export const alertSchemaVersion = 4;

/** The rule of a `rule_counts` key. */
export const ruleOfKey = (key: string): string | null => (key === '' ? null : key.slice(1));
