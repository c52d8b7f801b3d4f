import type { ConfigSnapshot } from './config-snapshot.ts';
import type { RetentionWarning } from './retention-watch.ts';
import type { StreamWorkerOptions } from './stream-worker.ts';
import type { StatsReport } from './worker-stats.ts';
import type { WorkerState } from './worker-states.ts';

/** What the engine sends a worker thread at start (structured-clone safe: no functions). */
export type WorkerInit = Omit<StreamWorkerOptions, 'onState' | 'onLog' | 'onWarnings' | 'connection'> & {
  readonly bootstrapServers: string;
  readonly kafkaClient: Readonly<Record<string, string>>;
  /** `weir.output.names`: the names of the fields the engine adds (set for the worker's thread). */
  readonly outputNames: 'weir' | 'original';
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
