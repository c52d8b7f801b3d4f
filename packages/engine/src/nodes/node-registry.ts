import { readFileSync } from 'node:fs';
import { apiError } from '../http/errors.ts';
import type { ConfigStore } from '../store/config-store.ts';

/** A registered engine instance (spec: Node), plus what an operator needs to tell whether it is alive. */
export interface NodeRecord {
  readonly uuid: string;
  readonly host: string;
  /** REST URL of the node's API. */
  readonly rest: string;
  readonly group: string;
  /** Engine state (spec: Engine state), e.g. RUNNING or NOT_RUNNING. */
  readonly state: string;
  /** ISO 8601 time of the last registration or heartbeat. */
  readonly lastSeen: string;
  /** Weir version of the node. */
  readonly version: string;
}

export const weirVersion: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** What the registry needs from the rest of the node; the stream engine plugs in here. */
export interface NodeEngineHooks {
  /** The engine's current state. */
  state(): string;
  /** Stops the engine (DELETE /api/nodes/{own uuid}). */
  stop(): Promise<void>;
}

export const idleEngine: NodeEngineHooks = { state: () => 'NOT_RUNNING', stop: async () => {} };

/**
 * The node registry (spec: Nodes; architecture: Processes): each node writes its own record at start
 * and refreshes it every `weir.node.heartbeat-seconds`; in kafka mode every node sees all of them.
 * A node can only deregister itself: DELETE with its own uuid stops its engine and its heartbeat
 * and removes its record; a restart registers it again.
 */
export class NodeRegistry {
  readonly uuid: string;
  readonly #store: ConfigStore;
  readonly #heartbeatMs: number;
  readonly #onError: (err: Error) => void;
  #self: Omit<NodeRecord, 'state' | 'lastSeen'> | undefined;
  #engine: NodeEngineHooks = idleEngine;
  #timer: NodeJS.Timeout | undefined;
  #inflight: Promise<void> = Promise.resolve();

  constructor(store: ConfigStore, uuid: string, heartbeatSeconds: number, onError: (err: Error) => void) {
    this.#store = store;
    this.uuid = uuid;
    this.#heartbeatMs = heartbeatSeconds * 1000;
    this.#onError = onError;
  }

  /** Connects the stream engine (its state is reported, and it is stopped on deregistration). */
  attachEngine(engine: NodeEngineHooks): void {
    this.#engine = engine;
  }

  /** Writes this node's record and starts the heartbeat. */
  async register(self: { host: string; rest: string; group: string }): Promise<void> {
    this.#self = { uuid: this.uuid, ...self, version: weirVersion };
    await this.#beat();
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.#beat().catch((err: Error) => this.#onError(err)), this.#heartbeatMs);
    this.#timer.unref();
  }

  list(): NodeRecord[] {
    return this.#store.list<NodeRecord>('nodes');
  }

  get(id: string): NodeRecord {
    const node = this.#store.get<NodeRecord>('nodes', id);
    if (!node) throw apiError('NODE_MISSING');
    return node;
  }

  /** DELETE /api/nodes/{id}: only the receiving node's own uuid (spec: Nodes); any other id is 400, known or not. */
  async deregister(id: string): Promise<void> {
    if (id !== this.uuid) throw apiError('NODE_MISMATCH');
    if (!this.#store.get('nodes', id)) throw apiError('NODE_MISSING');
    this.stopHeartbeat();
    this.#self = undefined;
    await this.#inflight.catch(() => {});
    await this.#engine.stop();
    await this.#store.delete('nodes', id);
  }

  stopHeartbeat(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #beat(): Promise<void> {
    if (!this.#self) return Promise.resolve();
    const record: NodeRecord = { ...this.#self, state: this.#engine.state(), lastSeen: new Date().toISOString() };
    this.#inflight = this.#store.put('nodes', this.uuid, record);
    return this.#inflight;
  }
}
