import { Worker } from 'node:worker_threads';
import type { Settings } from '../config/settings.ts';
import { domainError } from '../core/errors.ts';
import { SerialQueue } from '../core/serial-queue.ts';
import { alertsTopicName } from '../kafka/weir-topics.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { streamCollections, workerSnapshot, type ConfigSnapshot } from './config-snapshot.ts';
import { LookupIndexServer } from '../rules/lookup-index-server.ts';
import type { EngineMetrics } from './engine-metrics.ts';
import { MissingRuleLog } from '../rules/missing-rule-log.ts';
import type { RetentionWarning } from './source/retention-watch.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';
import { setWorkerGcFlag, workerResourceLimits } from './worker-limits.ts';
import type { WorkerState } from './worker-states.ts';

export interface EngineLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

interface WorkerHandle {
  readonly thread: Worker;
  state: WorkerState;
  stopped: Promise<void>;
  /** The worker's retention warnings, as it last sent them. */
  warnings: RetentionWarning[];
}

const warningKey = (w: RetentionWarning) => `${w.kind}\u0000${w.topic}`;

/** The consumer group of a node group: `weir.application.id` for `default`, `<id>-<group>` otherwise. */
export function consumerGroupId(applicationId: string, group: string): string {
  return group === 'default' ? applicationId : `${applicationId}-${group}`;
}

/**
 * The stream engine of a node (spec: Engine): `num.stream.threads` worker threads running every
 * enabled topology of the node's group. Configuration changes are pushed to running workers
 * (debounced by 100 ms) without a restart.
 */
export class StreamEngine {
  readonly #settings: Settings;
  readonly #store: ConfigStore;
  readonly #uuid: string;
  readonly #metrics: EngineMetrics;
  readonly #log: EngineLog;
  readonly #threads: number;
  #workers: WorkerHandle[] = [];
  #unsubscribe: (() => void) | undefined;
  #reloadTimer: NodeJS.Timeout | undefined;
  #lookupsChanged = false;
  /** The one copy of the shared lookups' column indexes, for every worker thread. */
  readonly #indexes = new LookupIndexServer();
  readonly #missingRules: MissingRuleLog;
  readonly #transitions = new SerialQueue();
  /** Warnings logged since the engine started (each once, whichever worker saw it first). */
  readonly #logged = new Set<string>();

  constructor(settings: Settings, store: ConfigStore, uuid: string, metrics: EngineMetrics, log: EngineLog) {
    this.#settings = settings;
    this.#store = store;
    this.#uuid = uuid;
    this.#metrics = metrics;
    this.#log = log;
    this.#threads = settings.get('num.stream.threads');
    this.#missingRules = new MissingRuleLog(settings.get('weir.group'), (message) => log.warn(message));
  }

  /** One state per stream thread. */
  states(): WorkerState[] {
    if (this.#workers.length === 0) return Array.from({ length: this.#threads }, () => 'NOT_RUNNING');
    return this.#workers.map((w) => w.state);
  }

  /**
   * The retention warnings of the running engine (`GET /api/engine/warnings`): one per input topic
   * and kind over every worker, the earliest seen; forgotten when the engine stops.
   */
  warnings(): RetentionWarning[] {
    const merged = new Map<string, RetentionWarning>();
    for (const w of this.#workers)
      for (const warning of w.warnings) {
        const seen = merged.get(warningKey(warning));
        if (!seen || warning.since < seen.since) merged.set(warningKey(warning), warning);
      }
    return [...merged.values()].sort((a, b) => a.topic.localeCompare(b.topic) || a.kind.localeCompare(b.kind));
  }

  /** The overall state for the node registry: the "least advanced" worker state. */
  state(): WorkerState {
    const states = this.states();
    for (const s of ['ERROR', 'PENDING_ERROR', 'PENDING_SHUTDOWN', 'REBALANCING', 'CREATED'] as const)
      if (states.includes(s)) return s;
    return states.every((s) => s === 'RUNNING') ? 'RUNNING' : 'NOT_RUNNING';
  }

  /**
   * Starts the workers; 400 (spec text) unless every worker is NOT_RUNNING. Returns the states,
   * REBALANCING. `beforeStart` (the audit entry) runs once the start is known to go ahead.
   */
  start(beforeStart?: () => Promise<void>): Promise<WorkerState[]> {
    return this.#serially(async () => {
      const current = this.state();
      if (current !== 'NOT_RUNNING') throw domainError('ENGINE_NOT_STOPPED', current);
      await beforeStart?.();
      const s = this.#settings;
      const group = s.get('weir.group');
      const applicationId = s.get('weir.application.id');
      const snapshot = this.#snapshot(true);
      this.#lookupsChanged = false;
      this.#workers = Array.from({ length: this.#threads }, (_, index) => {
        const init: WorkerInit = {
          index,
          bootstrapServers: s.get('bootstrap.servers'),
          kafkaClient: s.kafkaClient,
          clientId: `${applicationId}-${this.#uuid}-StreamThread-${index + 1}`,
          groupId: consumerGroupId(applicationId, group),
          group,
          guarantee: s.get('processing.guarantee'),
          transactionalId: `${consumerGroupId(applicationId, group)}-${this.#uuid}-${index}`,
          alertsTopic: alertsTopicName(s.get('weir.topic.prefix'), s.get('weir.output.names')),
          outputNames: s.get('weir.output.names'),
          idleCloseMs: s.get('weir.stream.idle-close-seconds') * 1000,
          commitIntervalMs: s.get('commit.interval.ms'),
          batchTargetMs: s.get('weir.stream.batch-target-ms'),
        };
        return this.#spawn(index, init);
      });
      for (const w of this.#workers) {
        w.state = 'REBALANCING';
        this.#post(w, { type: 'configure', snapshot });
        this.#post(w, { type: 'start' });
      }
      this.#unsubscribe = this.#store.onChange((collection) => {
        if (collection === 'lookups') this.#lookupsChanged = true;
        if (streamCollections.has(collection)) this.#scheduleReload();
      });
      return this.states();
    });
  }

  /** Stops the workers (they finish their batch and commit); repeated stops answer the same. */
  stop(): Promise<WorkerState[]> {
    return this.#serially(async () => {
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
      clearTimeout(this.#reloadTimer);
      const workers = this.#workers;
      for (const w of workers) this.#post(w, { type: 'stop' });
      await Promise.all(
        workers.map(async (w) => {
          const timeout = new Promise<void>((resolve) => setTimeout(resolve, 30_000).unref());
          await Promise.race([w.stopped, timeout]);
          await w.thread.terminate();
        }),
      );
      this.#workers = [];
      this.#indexes.close();
      this.#indexes.share([]);
      this.#logged.clear();
      workers.forEach((_, i) => this.#metrics.workerState(i, 'NOT_RUNNING'));
      return this.states();
    });
  }

  /** The store's configuration for the workers (`withLookups`: every lookup, in shared memory), checked for missing rules. */
  #snapshot(withLookups: boolean): ConfigSnapshot {
    const snapshot = workerSnapshot(this.#store, withLookups);
    if (snapshot.sharedLookups) this.#indexes.share(snapshot.sharedLookups);
    this.#missingRules.check(snapshot);
    return snapshot;
  }

  #spawn(index: number, init: WorkerInit): WorkerHandle {
    const heapMb = this.#settings.get('weir.stream.worker-heap-mb');
    const lookupIndexes = this.#indexes.channel();
    setWorkerGcFlag();
    const thread = new Worker(new URL('./worker-thread.ts', import.meta.url), {
      workerData: { ...init, lookupIndexes } satisfies WorkerInit,
      transferList: [lookupIndexes.port],
      execArgv: ['--disable-warning=ExperimentalWarning'],
      ...(heapMb > 0 ? { resourceLimits: workerResourceLimits(heapMb) } : {}),
    });
    let resolveStopped!: () => void;
    const handle: WorkerHandle = {
      thread,
      state: 'CREATED',
      stopped: new Promise((resolve) => (resolveStopped = resolve)),
      warnings: [],
    };
    thread.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'state':
          handle.state = message.state;
          this.#metrics.workerState(index, message.state);
          break;
        case 'stats':
          this.#metrics.report(message.report);
          break;
        case 'log':
          this.#log[message.level](`[stream-${index + 1}] ${message.message}`);
          break;
        case 'warnings':
          handle.warnings = message.warnings;
          for (const w of message.warnings) {
            if (this.#logged.has(warningKey(w))) continue;
            this.#logged.add(warningKey(w));
            this.#log.warn(`[stream-${index + 1}] ${w.kind}: ${w.message} Fix: ${w.fix}`);
          }
          break;
        case 'stopped':
          resolveStopped();
          break;
      }
    });
    thread.on('error', (err) => {
      handle.state = 'ERROR';
      this.#metrics.workerState(index, 'ERROR');
      const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#log.error(
        outOfMemory
          ? `[stream-${index + 1}] the worker thread ran out of its memory budget (weir.stream.worker-heap-mb=${heapMb} MB): raise the setting and start the engine again`
          : `[stream-${index + 1}] the worker thread failed: ${err.stack ?? err.message}`,
      );
      resolveStopped();
    });
    thread.on('exit', () => resolveStopped());
    return handle;
  }

  #post(worker: WorkerHandle, message: ToWorker): void {
    worker.thread.postMessage(message);
  }

  #scheduleReload(): void {
    clearTimeout(this.#reloadTimer);
    this.#reloadTimer = setTimeout(() => {
      // Lookups are sent only when one changed: a rule edit must not copy every table to every worker.
      const snapshot = this.#snapshot(this.#lookupsChanged);
      this.#lookupsChanged = false;
      for (const w of this.#workers) this.#post(w, { type: 'configure', snapshot });
    }, 100);
  }

  #serially<T>(fn: () => Promise<T>): Promise<T> {
    return this.#transitions.run(fn);
  }
}
