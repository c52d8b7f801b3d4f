import type { Lookup } from '../resources/lookup.ts';
import { moveLookupJson } from '../rules/lookup-json.ts';
import { shareLookup, type SharedLookupData } from '../rules/shared-lookup.ts';
import type { StoredPipeline } from '../resources/pipeline.ts';
import type { StoredRule } from '../resources/rule.ts';
import type { StoredTask } from '../resources/task.ts';
import type { StoredTopology } from '../resources/topology.ts';
import type { ConfigStore } from '../store/config-store.ts';

/** Everything a worker needs to build its plan; sent to worker threads as one message. */
export interface ConfigSnapshot {
  readonly version: number;
  readonly topologies: readonly StoredTopology[];
  readonly pipelines: readonly StoredPipeline[];
  readonly tasks: readonly StoredTask[];
  readonly rules: readonly StoredRule[];
  /** Absent when no lookup changed since the previous snapshot (lookups can be large: up to 64 MiB each). */
  readonly lookups?: readonly Lookup[];
  /** The lookups as the worker threads get them (`workerSnapshot`, `forWorkers`): in shared memory, one copy per node. */
  readonly sharedLookups?: readonly SharedLookupData[];
}

/**
 * A snapshot whose lookups are given as rows, with them encoded once into shared memory
 * (rules/shared-lookup.ts), so every thread reads the same bytes instead of a copy of its own: for
 * snapshots that do not come from a store (bench/engine-weir.ts); the engine uses workerSnapshot.
 */
export function forWorkers(snapshot: ConfigSnapshot): ConfigSnapshot {
  if (!snapshot.lookups) return snapshot;
  const { lookups, ...rest } = snapshot;
  return { ...rest, sharedLookups: lookups.map((l) => shareLookup(l.id, l.content)) };
}

/**
 * The store's configuration as posted to the worker threads (the stream engine's start and
 * reloads): each lookup encoded into shared memory straight from its stored JSON (rules/lookup-json.ts),
 * so the main thread never builds the rows as objects, and the stored JSON freed once copied;
 * `withLookups` false when no lookup changed.
 */
export function workerSnapshot(store: ConfigStore, withLookups = true): ConfigSnapshot {
  const snapshot = readSnapshot(store, false);
  if (!withLookups) return snapshot;
  return { ...snapshot, sharedLookups: store.listJson('lookups').map((json) => moveLookupJson(json)) };
}

let version = 0;

export function readSnapshot(store: ConfigStore, withLookups = true): ConfigSnapshot {
  return {
    version: ++version,
    topologies: store.list<StoredTopology>('topologies'),
    pipelines: store.list<StoredPipeline>('pipelines'),
    tasks: store.list<StoredTask>('tasks'),
    rules: store.list<StoredRule>('rules'),
    ...(withLookups ? { lookups: store.list<Lookup>('lookups') } : {}),
  };
}

/** The collections whose changes the running engine must see. */
export const streamCollections = new Set(['topologies', 'pipelines', 'tasks', 'rules', 'lookups']);
