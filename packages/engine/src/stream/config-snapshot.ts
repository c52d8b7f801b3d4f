import type { Lookup } from '../resources/lookup.ts';
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
