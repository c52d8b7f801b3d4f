/**
 * Where a node keeps its configuration: users, the token secret, tasks, pipelines, topologies,
 * rules, lookups and nodes. Reads are synchronous (the store is materialised in memory or on local
 * disk); writes resolve once the record is durable and visible to this node's reads.
 */
export const collections = ['meta', 'users', 'tasks', 'pipelines', 'topologies', 'rules', 'lookups', 'nodes'] as const;
export type Collection = (typeof collections)[number];

export type ChangeListener = (collection: Collection, id: string, value: unknown) => void;

export interface ConfigStore {
  get<T>(collection: Collection, id: string): T | undefined;
  list<T>(collection: Collection): T[];
  put(collection: Collection, id: string, value: unknown): Promise<void>;
  /** Writes all entries or none. */
  putMany(collection: Collection, entries: readonly (readonly [string, unknown])[]): Promise<void>;
  /** Resolves false when there was nothing to delete. */
  delete(collection: Collection, id: string): Promise<boolean>;
  /** Called after every change this node sees (its own writes and, in kafka mode, other nodes'). */
  onChange(listener: ChangeListener): () => void;
  close(): Promise<void>;
}
