import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { ChangeListener, Collection, ConfigStore } from './config-store.ts';

/** `weir.config.store=local`: one SQLite file (WAL) under `weir.config.location`. */
export class SqliteConfigStore implements ConfigStore {
  readonly #db: DatabaseSync;
  readonly #listeners = new Set<ChangeListener>();
  readonly #select: StatementSync;
  readonly #selectAll: StatementSync;
  readonly #upsert: StatementSync;
  readonly #remove: StatementSync;

  constructor(location: string) {
    mkdirSync(location, { recursive: true });
    this.#db = new DatabaseSync(path.join(location, 'weir.db'));
    this.#db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS records (
        collection TEXT NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL, seq INTEGER NOT NULL,
        PRIMARY KEY (collection, id));`);
    this.#select = this.#db.prepare('SELECT value FROM records WHERE collection = ? AND id = ?');
    this.#selectAll = this.#db.prepare('SELECT value FROM records WHERE collection = ? ORDER BY seq');
    this.#upsert = this.#db.prepare(`INSERT INTO records (collection, id, value, seq)
      VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE collection = ?))
      ON CONFLICT (collection, id) DO UPDATE SET value = excluded.value`);
    this.#remove = this.#db.prepare('DELETE FROM records WHERE collection = ? AND id = ?');
  }

  get<T>(collection: Collection, id: string): T | undefined {
    const row = this.#select.get(collection, id) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  list<T>(collection: Collection): T[] {
    return (this.#selectAll.all(collection) as { value: string }[]).map((row) => JSON.parse(row.value) as T);
  }

  async put(collection: Collection, id: string, value: unknown): Promise<void> {
    await this.putMany(collection, [[id, value]]);
  }

  async putMany(collection: Collection, entries: readonly (readonly [string, unknown])[]): Promise<void> {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      for (const [id, value] of entries) this.#upsert.run(collection, id, JSON.stringify(value), collection);
      this.#db.exec('COMMIT');
    } catch (err) {
      this.#db.exec('ROLLBACK');
      throw err;
    }
    for (const [id, value] of entries) this.#emit(collection, id, value);
  }

  async delete(collection: Collection, id: string): Promise<boolean> {
    const result = this.#remove.run(collection, id);
    if (result.changes === 0) return false;
    this.#emit(collection, id, undefined);
    return true;
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  #emit(collection: Collection, id: string, value: unknown): void {
    for (const listener of this.#listeners) listener(collection, id, value);
  }
}
