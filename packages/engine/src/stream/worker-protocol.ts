import type { ConfigSnapshot } from './config-snapshot.ts';
import type { SinkOptions } from './sink/sink.ts';
import type { RetentionWarning } from './source/retention-watch.ts';
import type { SourceOptions } from './source/source.ts';
import type { StageStateOptions } from './state/stage-state.ts';
import type { StatsReport } from './worker-stats.ts';
import type { WorkerState } from './worker-states.ts';
import type { KafkaConnection } from '../kafka/client-options.ts';
import type { LookupIndexChannel } from '../rules/lookup-index-server.ts';
import type { ColumnIndexSource } from '../rules/shared-lookup.ts';

/** A stream worker's settings and where it reports (stream-worker.ts). */
export interface StreamWorkerOptions {
  readonly index: number;
  readonly connection: KafkaConnection;
  readonly clientId: string;
  readonly groupId: string;
  readonly group: string;
  readonly guarantee: 'at_least_once' | 'exactly_once_v2';
  /** Unique per worker and stable across restarts of the node (fences zombie transactions). */
  readonly transactionalId: string;
  readonly alertsTopic: string;
  /** The most records of a batch (2,000; lower in tests). */
  readonly maxBatch?: number;
  /** weir.stream.batch-target-ms (source/batch-sizer.ts). */
  readonly batchTargetMs?: number;
  /** commit.interval.ms (at_least_once): 0 commits each batch once acknowledged, N at most every N ms. */
  readonly commitIntervalMs?: number;
  /** weir.stream.idle-close-seconds in ms (0: windows move only with the events' own times), see StageState. */
  readonly idleCloseMs?: number;
  /** The shared lookups' column indexes, from the main thread's one copy (worker-thread.ts: over `WorkerInit.lookupIndexes`). */
  readonly lookupIndexes?: ColumnIndexSource;
  readonly onState: (state: WorkerState) => void;
  readonly onLog: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The worker's retention warnings, whenever one is added or removed (retention-watch.ts). */
  readonly onWarnings?: (warnings: RetentionWarning[]) => void;
  /** The stages' Kafka clients, replaced by fakes in unit tests (never set by the engine). */
  readonly openAdmin?: SourceOptions['openAdmin'];
  readonly openConsumer?: SourceOptions['openConsumer'];
  readonly writer?: SinkOptions['writer'];
  readonly readChangelog?: StageStateOptions['readChangelog'];
}

/** The options only a unit test sets (functions: they do not cross to a worker thread). */
type TestClients = 'openAdmin' | 'openConsumer' | 'writer' | 'readChangelog';

/** What the engine sends a worker thread at start (structured-clone safe: no functions). */
export type WorkerInit = Omit<
  StreamWorkerOptions,
  'onState' | 'onLog' | 'onWarnings' | 'connection' | 'lookupIndexes' | TestClients
> & {
  readonly bootstrapServers: string;
  readonly kafkaClient: Readonly<Record<string, string>>;
  /** `weir.output.names`: the names of the fields the engine adds (set for the worker's thread). */
  readonly outputNames: 'weir' | 'original';
  /** The channel to the main thread's column indexes of the shared lookups (rules/lookup-index-server.ts; its port transferred). */
  readonly lookupIndexes?: LookupIndexChannel;
};

export type ToWorker =
  | { readonly type: 'configure'; readonly snapshot: ConfigSnapshot }
  | { readonly type: 'start' }
  | { readonly type: 'stop' };

export type FromWorker =
  | { readonly type: 'state'; readonly state: WorkerState }
  | { readonly type: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly message: string }
  | { readonly type: 'stats'; readonly report: StatsReport }
  | { readonly type: 'warnings'; readonly warnings: RetentionWarning[] }
  | { readonly type: 'stopped' };
