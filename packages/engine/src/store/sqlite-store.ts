import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  type ChangeListener,
  type Collection,
  type ConfigStore,
  type VersionEntry,
  type VersionRecord,
  type WriteExtras,
} from './config-store.ts';
import { inTransaction } from '../core/sqlite-transaction.ts';

const dayMs = 24 * 3600 * 1000;

/**
 * `weir.config.store=local`: one SQLite file (WAL) under `weir.config.location`, owner-only (0600;
 * SQLite gives its -wal and -shm files the same mode). Configuration records and the audit trail
 * live in the same file, with the versions of rules, tasks, pipelines and topologies (one row per
 * version, numbered per record), so a change, its audit entries and its versions are one transaction.
 */
export class SqliteConfigStore implements ConfigStore {
  readonly #db: DatabaseSync;
  readonly #listeners = new Set<ChangeListener>();
  readonly #select: StatementSync;
  readonly #selectAll: StatementSync;
  readonly #selectAllJson: StatementSync;
  readonly #upsert: StatementSync;
  readonly #remove: StatementSync;
  readonly #insertAudit: StatementSync;
  readonly #insertVersion: StatementSync;
  readonly #selectVersions: StatementSync;
  readonly #pruneAudit: StatementSync;
  readonly #retentionMs: number;
  #lastPrune = 0;

  constructor(location: string, auditRetentionDays = 365) {
    mkdirSync(location, { recursive: true, mode: 0o700 });
    const file = path.join(location, 'weir.db');
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    this.#db = new DatabaseSync(file);
    this.#db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS records (
        collection TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL, seq INTEGER NOT NULL,
        PRIMARY KEY (collection, id));
      CREATE TABLE IF NOT EXISTS audit (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, time INTEGER NOT NULL, user TEXT, kind TEXT NOT NULL, rid TEXT,
        entry TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS audit_time ON audit (time);
      CREATE TABLE IF NOT EXISTS versions (
        collection TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, entry TEXT NOT NULL,
        PRIMARY KEY (collection, id, version));`);
    this.#select = this.#db.prepare('SELECT value FROM records WHERE collection = ? AND id = ?');
    this.#selectAll = this.#db.prepare('SELECT value FROM records WHERE collection = ? ORDER BY seq');
    // a BLOB: the stored text's bytes, never a JS string
    this.#selectAllJson = this.#db.prepare(
      'SELECT CAST(value AS BLOB) AS value FROM records WHERE collection = ? ORDER BY seq',
    );
    this.#upsert = this.#db.prepare(`INSERT INTO records (collection, id, value, seq)
      VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE collection = ?))
      ON CONFLICT (collection, id) DO UPDATE SET value = excluded.value`);
    this.#remove = this.#db.prepare('DELETE FROM records WHERE collection = ? AND id = ?');
    this.#insertAudit = this.#db.prepare('INSERT INTO audit (time, user, kind, rid, entry) VALUES (?, ?, ?, ?, ?)');
    this.#insertVersion = this.#db.prepare(`INSERT INTO versions (collection, id, version, entry)
      SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ? FROM versions WHERE collection = ? AND id = ?`);
    this.#selectVersions = this.#db.prepare(
      'SELECT version, entry FROM versions WHERE collection = ? AND id = ? ORDER BY version',
    );
    this.#pruneAudit = this.#db.prepare('DELETE FROM audit WHERE time < ?');
    this.#retentionMs = auditRetentionDays * dayMs;
    this.#prune();
  }

  get<T>(collection: Collection, id: string): T | undefined {
    const row = this.#select.get(collection, id) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  list<T>(collection: Collection): T[] {
    return (this.#selectAll.all(collection) as { value: string }[]).map((row) => JSON.parse(row.value) as T);
  }

  listJson(collection: Collection): Uint8Array[] {
    return (this.#selectAllJson.all(collection) as { value: Uint8Array }[]).map((row) => row.value);
  }

  async put(collection: Collection, id: string, value: unknown, extras: WriteExtras = {}): Promise<void> {
    await this.putMany(collection, [[id, value]], extras);
  }

  async putMany(
    collection: Collection,
    entries: readonly (readonly [string, unknown])[],
    extras: WriteExtras = {},
  ): Promise<void> {
    this.#transaction(() => {
      for (const [id, value] of entries) this.#upsert.run(collection, id, JSON.stringify(value), collection);
      this.#writeExtras(collection, extras);
    });
    for (const [id, value] of entries) this.#emit(collection, id, value);
  }

  async delete(collection: Collection, id: string, extras: WriteExtras = {}): Promise<boolean> {
    const changed = this.#transaction(() => {
      const result = this.#remove.run(collection, id);
      if (result.changes === 0) return false;
      this.#writeExtras(collection, extras);
      return true;
    });
    if (changed) this.#emit(collection, id, undefined);
    return changed;
  }

  async appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    this.#transaction(() => this.#writeAudit(entries));
  }

  queryAudit(query: AuditQuery): AuditPage {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const filters: [string, string | number | undefined][] = [
      ['time >= ?', query.from],
      ['time <= ?', query.to],
      ['user = ?', query.user],
      ['kind = ?', query.kind],
      ['rid = ?', query.id],
    ];
    for (const [clause, value] of filters) {
      if (value === undefined) continue;
      where.push(clause);
      args.push(value);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const { total } = this.#db.prepare(`SELECT COUNT(*) AS total FROM audit ${filter}`).get(...args) as {
      total: number;
    };
    const rows = this.#db
      .prepare(`SELECT seq, entry FROM audit ${filter} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...args, query.limit, query.offset) as { seq: number; entry: string }[];
    return { total, entries: rows.map((row) => ({ seq: row.seq, ...(JSON.parse(row.entry) as AuditEntry) })) };
  }

  versions(collection: Collection, id: string): readonly VersionRecord[] {
    return (this.#selectVersions.all(collection, id) as { version: number; entry: string }[]).map((row) => ({
      ...(JSON.parse(row.entry) as VersionEntry),
      version: row.version,
    }));
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  #transaction<T>(work: () => T): T {
    return inTransaction(this.#db, work);
  }

  #writeExtras(collection: Collection, extras: WriteExtras): void {
    for (const entry of extras.versions ?? [])
      this.#insertVersion.run(collection, entry.id, JSON.stringify(entry), collection, entry.id);
    this.#writeAudit(extras.audit ?? []);
  }

  #writeAudit(entries: readonly AuditEntry[]): void {
    for (const entry of entries)
      this.#insertAudit.run(entry.time, entry.user, entry.kind, entry.id, JSON.stringify(entry));
    if (entries.length > 0 && Date.now() - this.#lastPrune > 3600_000) this.#prune();
  }

  #prune(): void {
    this.#lastPrune = Date.now();
    this.#pruneAudit.run(Date.now() - this.#retentionMs);
  }

  #emit(collection: Collection, id: string, value: unknown): void {
    for (const listener of this.#listeners) listener(collection, id, value);
  }
}
