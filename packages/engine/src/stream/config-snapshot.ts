import type { ConfigStore } from '../store/config-store.ts';

/** The stored configuration records the stream runtime reads (latest forms, as the resources store them). */
export interface SerdeBinding {
  readonly name: string;
  readonly keySerde: string;
  readonly valueSerde: string;
}

export interface TopologyRecord {
  readonly id: number;
  readonly name: string;
  readonly pipelines: readonly number[];
  readonly enabled?: boolean;
  readonly group?: string;
  readonly input: SerdeBinding;
  readonly output: readonly SerdeBinding[];
}

export interface PipelineRecord {
  readonly id: number;
  readonly name: string;
  readonly tasks: readonly number[];
}

export interface TaskRecordSpec {
  readonly id: number;
  readonly name: string;
  readonly function: string;
  readonly definition?: unknown;
}

export interface RuleRecord {
  readonly id: string;
  readonly name: string;
  readonly pdl: string;
  readonly description?: string;
  readonly datamodel?: string;
  readonly annotations?: readonly string[];
  readonly enabled?: boolean;
}

export interface LookupRecord {
  readonly id: string;
  readonly content: readonly Record<string, unknown>[];
}

/** Everything a worker needs to build its plan; sent to worker threads as one message. */
export interface ConfigSnapshot {
  readonly version: number;
  readonly topologies: readonly TopologyRecord[];
  readonly pipelines: readonly PipelineRecord[];
  readonly tasks: readonly TaskRecordSpec[];
  readonly rules: readonly RuleRecord[];
  /** Absent when no lookup changed since the previous snapshot (lookups can be large: up to 64 MiB each). */
  readonly lookups?: readonly LookupRecord[];
}

let version = 0;

export function readSnapshot(store: ConfigStore, withLookups = true): ConfigSnapshot {
  return {
    version: ++version,
    topologies: store.list<TopologyRecord>('topologies'),
    pipelines: store.list<PipelineRecord>('pipelines'),
    tasks: store.list<TaskRecordSpec>('tasks'),
    rules: store.list<RuleRecord>('rules'),
    ...(withLookups ? { lookups: store.list<LookupRecord>('lookups') } : {}),
  };
}

/** The collections whose changes the running engine must see. */
export const streamCollections = new Set(['topologies', 'pipelines', 'tasks', 'rules', 'lookups']);
