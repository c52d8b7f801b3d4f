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

export type ChangeListener = (collection: Collection, id: string, value: unknown) => void;

export interface ConfigStore {
  get<T>(collection: Collection, id: string): T | undefined;
  list<T>(collection: Collection): T[];
  /** Every write takes the audit entries to commit with it: the change and its entries commit together or not at all. */
  put(collection: Collection, id: string, value: unknown, audit?: readonly AuditEntry[]): Promise<void>;
  /** Writes all entries or none. */
  putMany(
    collection: Collection,
    entries: readonly (readonly [string, unknown])[],
    audit?: readonly AuditEntry[],
  ): Promise<void>;
  /** Resolves false when there was nothing to delete (and then writes no audit entry). */
  delete(collection: Collection, id: string, audit?: readonly AuditEntry[]): Promise<boolean>;
  /** Appends audit entries that go with no configuration change (logins, engine start/stop, topics). */
  appendAudit(entries: readonly AuditEntry[]): Promise<void>;
  /** Entries kept for `weir.audit.retention-days`, newest first. */
  queryAudit(query: AuditQuery): AuditPage;
  /** Called after every change this node sees (its own writes and, in kafka mode, other nodes'). */
  onChange(listener: ChangeListener): () => void;
  close(): Promise<void>;
}
