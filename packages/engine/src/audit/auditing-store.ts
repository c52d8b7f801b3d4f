import { domainError } from '../core/errors.ts';
import type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  ChangeListener,
  Collection,
  ConfigStore,
  VersionEntry,
  VersionRecord,
  WriteExtras,
} from '../store/config-store.ts';
import { currentActor, type Actor } from './audit-context.ts';

/** The audit `kind` of each collection's records; `meta` (token secret, logout marks) is not audited as such. */
const kindOf: Partial<Record<Collection, string>> = {
  users: 'user',
  tasks: 'task',
  pipelines: 'pipeline',
  topologies: 'topology',
  rules: 'rule',
  lookups: 'lookup',
  nodes: 'node',
  silences: 'silence',
  notifiers: 'notifier',
};

/** What the audit trail keeps of a record: users and notifiers without secrets, lookups without their rows. */
function shown(collection: Collection, value: unknown): unknown {
  if (value === undefined || value === null || typeof value !== 'object') return value ?? null;
  if (collection === 'users') {
    const { passwordHash: _hash, sessionKey: _key, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  if (collection === 'notifiers') {
    const { secret, ...rest } = value as Record<string, unknown>;
    return { ...rest, secretSet: typeof secret === 'string' };
  }
  if (collection === 'lookups') {
    const { content, ...rest } = value as { content?: unknown };
    return {
      ...rest,
      rows: Array.isArray(content) ? content.length : 0,
      bytes: JSON.stringify(content ?? null).length,
    };
  }
  return value;
}

function passwordChanged(collection: Collection, before: unknown, after: unknown): boolean {
  if (collection !== 'users' || !before || !after) return false;
  return (before as { passwordHash?: string }).passwordHash !== (after as { passwordHash?: string }).passwordHash;
}

/** An entry's `detail` names the rollback and the change note of the version the write stores. */
function withVersionDetail(entry: AuditEntry, version: VersionEntry | undefined): AuditEntry {
  const parts = [
    entry.detail,
    version?.rollbackOf !== undefined ? `rollback to version ${version.rollbackOf}` : undefined,
    version?.note !== undefined ? `note: ${version.note}` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length === 0 ? entry : { ...entry, detail: parts.join('; ') };
}

/**
 * The node's config store with the audit trail (docs/security.md, "Audit trail"): every write made
 * while handling an API request goes to the store together with one audit entry per record (who,
 * from where, when, the record before and after), in one transaction; writes outside requests (the
 * node's heartbeat) are not audited. A write that cannot be stored with its entries is not stored:
 * the caller gets 503 and nothing changed.
 */
export class AuditingStore implements ConfigStore {
  readonly #inner: ConfigStore;

  constructor(inner: ConfigStore) {
    this.#inner = inner;
  }

  get<T>(collection: Collection, id: string): T | undefined {
    return this.#inner.get<T>(collection, id);
  }

  list<T>(collection: Collection): T[] {
    return this.#inner.list<T>(collection);
  }

  listJson(collection: Collection): Uint8Array[] {
    return this.#inner.listJson(collection);
  }

  /** `extras.versions` are written with the change; its audit entries are this store's. */
  put(collection: Collection, id: string, value: unknown, extras: WriteExtras = {}): Promise<void> {
    return this.putMany(collection, [[id, value]], extras);
  }

  async putMany(
    collection: Collection,
    entries: readonly (readonly [string, unknown])[],
    { versions }: WriteExtras = {},
  ): Promise<void> {
    const actor = this.#actor(collection);
    if (!actor) return this.#inner.putMany(collection, entries, { versions });
    const time = Date.now();
    const audit = entries.map(([id, value]): AuditEntry => {
      const before = this.#inner.get(collection, id);
      const entry = this.#entry(actor, time, collection, before === undefined ? 'create' : 'update', id, before, value);
      return withVersionDetail(
        entry,
        versions?.find((v) => v.id === id),
      );
    });
    await this.#guard(() => this.#inner.putMany(collection, entries, { audit, versions }));
  }

  async delete(collection: Collection, id: string, { versions }: WriteExtras = {}): Promise<boolean> {
    const actor = this.#actor(collection);
    if (!actor) return this.#inner.delete(collection, id, { versions });
    const before = this.#inner.get(collection, id);
    if (before === undefined) return false;
    const entry = withVersionDetail(
      this.#entry(actor, Date.now(), collection, 'delete', id, before, undefined),
      versions?.find((v) => v.id === id),
    );
    return this.#guard(() => this.#inner.delete(collection, id, { audit: [entry], versions }));
  }

  versions(collection: Collection, id: string): readonly VersionRecord[] {
    return this.#inner.versions(collection, id);
  }

  /** Records an event that changes no stored record (login, logout, engine start/stop, topics). */
  async record(
    kind: string,
    action: string,
    id: string | null,
    extra: { user?: string | null; detail?: string; after?: unknown } = {},
  ): Promise<void> {
    const actor = currentActor() ?? { user: null, address: null };
    const entry: AuditEntry = {
      time: Date.now(),
      user: extra.user !== undefined ? extra.user : actor.user,
      address: actor.address,
      kind,
      action,
      id,
      ...(extra.after !== undefined ? { after: extra.after } : {}),
      ...(extra.detail !== undefined ? { detail: extra.detail } : {}),
    };
    await this.#guard(() => this.#inner.appendAudit([entry]));
  }

  appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    return this.#inner.appendAudit(entries);
  }

  queryAudit(query: AuditQuery): AuditPage {
    return this.#inner.queryAudit(query);
  }

  onChange(listener: ChangeListener): () => void {
    return this.#inner.onChange(listener);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #actor(collection: Collection): Actor | undefined {
    return kindOf[collection] === undefined ? undefined : currentActor();
  }

  #entry(
    actor: Actor,
    time: number,
    collection: Collection,
    action: string,
    id: string,
    before: unknown,
    after: unknown,
  ): AuditEntry {
    return {
      time,
      user: actor.user,
      address: actor.address,
      kind: kindOf[collection]!,
      action,
      id,
      before: shown(collection, before),
      after: shown(collection, after),
      ...(passwordChanged(collection, before, after) ? { detail: 'password changed' } : {}),
    };
  }

  async #guard<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      throw domainError(
        'UNAVAILABLE',
        `Nothing was changed: the change and its audit entry could not be stored together (${(err as Error).message}).`,
      );
    }
  }
}
