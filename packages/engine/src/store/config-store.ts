/**
 * Where a node keeps its configuration: users, the token secret, tasks, pipelines, topologies,
 * rules, lookups, nodes and silences. Reads are synchronous (the store is materialised in memory or
 * on local disk); writes resolve once the record is durable and visible to this node's reads.
 */
import type { Collection } from '@weir/contract';

export { collections, type Collection } from '@weir/contract';

/**
 * One entry of the audit trail (docs/security.md, "Audit trail"): who (`user`, null when nobody is
 * logged in, e.g. a failed login names the attempted user in `id`), from where, what (`kind`,
 * `action`, `id`) and, for configuration, the record before and after.
 */
export interface AuditEntry {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly user: string | null;
  readonly address: string | null;
  readonly kind: string;
  readonly action: string;
  readonly id: string | null;
  readonly before?: unknown;
  readonly after?: unknown;
  readonly detail?: string;
}

/** A stored entry: `seq` orders the entries of one store (an offset in kafka mode). */
export interface AuditRecord extends AuditEntry {
  readonly seq: number;
}

export interface AuditQuery {
  readonly user?: string;
  readonly kind?: string;
  readonly id?: string;
  /** Inclusive bounds, milliseconds since the epoch. */
  readonly from?: number;
  readonly to?: number;
  readonly offset: number;
  readonly limit: number;
}

/** One page of matching entries, newest first, and how many match in all. */
export interface AuditPage {
  readonly total: number;
  readonly entries: readonly AuditRecord[];
}

export function auditMatches(entry: AuditEntry, q: AuditQuery): boolean {
  return (
    (q.user === undefined || entry.user === q.user) &&
    (q.kind === undefined || entry.kind === q.kind) &&
    (q.id === undefined || entry.id === q.id) &&
    (q.from === undefined || entry.time >= q.from) &&
    (q.to === undefined || entry.time <= q.to)
  );
}

/**
 * One change of a versioned record (a rule, task, pipeline or topology; docs/detection-as-code.md,
 * "Versions"): who made it, when, why (the optional change note) and the record as it was stored
 * (none for a deletion). The store numbers the versions of each record 1, 2, … in the order it
 * stores them.
 */
export interface VersionEntry {
  /** The record's id (its store key). */
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly user: string | null;
  readonly action: 'create' | 'update' | 'delete';
  readonly note?: string;
  /** The version this change restored (POST …/versions/{n}/rollback). */
  readonly rollbackOf?: number;
  /** The record as stored; absent for a deletion. */
  readonly record?: unknown;
}

export interface VersionRecord extends VersionEntry {
  readonly version: number;
}

/** What commits together with a write: its audit entries and the versions it makes. */
export interface WriteExtras {
  readonly audit?: readonly AuditEntry[];
  readonly versions?: readonly VersionEntry[];
}

export type ChangeListener = (collection: Collection, id: string, value: unknown) => void;

export interface ConfigStore {
  get<T>(collection: Collection, id: string): T | undefined;
  list<T>(collection: Collection): T[];
  /**
   * Every record of a collection as its stored JSON (UTF-8), in `list` order, without building its
   * objects: what the stream engine encodes the lookups into shared memory from (config-snapshot.ts).
   * The arrays are new and the caller's (config-snapshot.ts frees each once copied).
   */
  listJson(collection: Collection): Uint8Array[];
  /**
   * Every write takes the audit entries and versions to commit with it: the change, its entries and
   * its versions commit together or not at all.
   */
  put(collection: Collection, id: string, value: unknown, extras?: WriteExtras): Promise<void>;
  /** Writes all entries or none. */
  putMany(
    collection: Collection,
    entries: readonly (readonly [string, unknown])[],
    extras?: WriteExtras,
  ): Promise<void>;
  /** Resolves false when there was nothing to delete (and then writes no audit entry and no version). */
  delete(collection: Collection, id: string, extras?: WriteExtras): Promise<boolean>;
  /** The stored versions of a record, oldest first (kept after the record is deleted). */
  versions(collection: Collection, id: string): readonly VersionRecord[];
  /** Appends audit entries that go with no configuration change (logins, engine start/stop, topics). */
  appendAudit(entries: readonly AuditEntry[]): Promise<void>;
  /** Entries kept for `weir.audit.retention-days`, newest first. */
  queryAudit(query: AuditQuery): AuditPage;
  /** Called after every change this node sees (its own writes and, in kafka mode, other nodes'). */
  onChange(listener: ChangeListener): () => void;
  close(): Promise<void>;
}
