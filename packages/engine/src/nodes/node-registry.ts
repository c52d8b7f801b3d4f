import { readFileSync } from 'node:fs';
import { SettingsError } from '../config/settings.ts';
import { domainError } from '../core/errors.ts';
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

/** A node as the API shows it: its record and whether it is alive (computed when read, never stored). */
export interface NodeView extends NodeRecord {
  /** True when its `lastSeen` is at most `weir.node.dead-after-seconds` old (always true for the answering node). */
  readonly alive: boolean;
}

export const weirVersion: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

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
 * A node is alive while its `lastSeen` is at most `weir.node.dead-after-seconds` old.
 * DELETE with the node's own uuid stops its engine and its heartbeat and removes its record (a
 * restart registers it again); DELETE of another node is refused while that node is alive, and
 * removes the record of a dead one.
 */
export class NodeRegistry {
  readonly uuid: string;
  readonly #store: ConfigStore;
  readonly #heartbeatMs: number;
  readonly #deadAfterMs: number;
  readonly #onError: (err: Error) => void;
  #self: Omit<NodeRecord, 'state' | 'lastSeen'> | undefined;
  #engine: NodeEngineHooks = idleEngine;
  #timer: NodeJS.Timeout | undefined;
  #inflight: Promise<void> = Promise.resolve();

  constructor(
    store: ConfigStore,
    uuid: string,
    heartbeatSeconds: number,
    deadAfterSeconds: number,
    onError: (err: Error) => void,
  ) {
    if (deadAfterSeconds < 2 * heartbeatSeconds) {
      throw new SettingsError(
        `weir.node.dead-after-seconds (${deadAfterSeconds}) must be at least twice weir.node.heartbeat-seconds (${heartbeatSeconds}), ` +
          'or a live node whose heartbeat is a little late would be shown as dead',
      );
    }
    this.#store = store;
    this.uuid = uuid;
    this.#heartbeatMs = heartbeatSeconds * 1000;
    this.#deadAfterMs = deadAfterSeconds * 1000;
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

  list(): NodeView[] {
    const now = Date.now();
    return this.#store.list<NodeRecord>('nodes').map((node) => this.#view(node, now));
  }

  get(id: string): NodeView {
    const node = this.#store.get<NodeRecord>('nodes', id);
    if (!node) throw domainError('NODE_MISSING');
    return this.#view(node, Date.now());
  }

  /**
   * DELETE /api/nodes/{id}. The receiving node's own uuid deregisters it (spec: Nodes). Another
   * uuid is 400 NODE_MISMATCH as the spec says, known or not, except the record of a known dead
   * node, which any admin may remove.
   */
  async deregister(id: string): Promise<void> {
    const node = this.#store.get<NodeRecord>('nodes', id);
    if (id !== this.uuid) {
      if (!node || this.#view(node, Date.now()).alive) throw domainError('NODE_MISMATCH');
      await this.#store.delete('nodes', id);
      return;
    }
    if (!node) throw domainError('NODE_MISSING');
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

  #view(node: NodeRecord, now: number): NodeView {
    const seen = Date.parse(node.lastSeen);
    const alive = node.uuid === this.uuid || (Number.isFinite(seen) && now - seen <= this.#deadAfterMs);
    return { ...node, alive };
  }

  #beat(): Promise<void> {
    if (!this.#self) return Promise.resolve();
    const record: NodeRecord = { ...this.#self, state: this.#engine.state(), lastSeen: new Date().toISOString() };
    this.#inflight = this.#store.put('nodes', this.uuid, record);
    return this.#inflight;
  }
}
