import { randomUUID } from 'node:crypto';
import { domainError } from '../core/errors.ts';
import {
  ConsumerSession,
  kafkaConsumer,
  type ConsumedMessage,
  type ConsumerOptions,
  type SessionConsumer,
} from './consumer-session.ts';
import type { SerdeType } from './serdes.ts';
import type { StartPosition } from './start-position.ts';

export type { ConsumedMessage } from './consumer-session.ts';

/** Spec: States and transitions → Consumer. Any other status is the text of the error that ended it. */
export const consumerStatus = { CREATED: 'CREATED', RUNNING: 'RUNNING', COMPLETED: 'COMPLETED' } as const;

export interface ConsumeRequest {
  readonly keyType: SerdeType;
  readonly valueType: SerdeType;
  readonly maxEvents: number;
  readonly maxTimeoutSeconds: number;
  /** Where to start (spec: `offset` earliest/latest; docs/api.md: an offset, a time, one partition). */
  readonly start: StartPosition;
  /** Complete once the partitions read hold nothing more than when the session started (docs/api.md). */
  readonly untilEnd?: boolean;
}

export interface ConsumeLimits {
  readonly maxSessionsPerUser: number;
  readonly idleSeconds: number;
  /** Key + value bytes one session keeps before it completes. */
  readonly maxBytes: number;
}

/**
 * One user's consumer of one topic (a ConsumerSession of a fresh consumer group) that collects up
 * to maxEvents messages, or maxBytes of keys and values, or what maxTimeoutSeconds brings.
 */
class ConsumeSession {
  readonly messages: ConsumedMessage[] = [];
  readonly createdAt = Date.now();
  readonly #session: ConsumerSession;
  #bytes = 0;
  #timeout: NodeJS.Timeout | undefined;
  #idle: NodeJS.Timeout | undefined;
  readonly #request: ConsumeRequest;
  readonly #limits: ConsumeLimits;
  readonly #onIdle: () => void;

  constructor(request: ConsumeRequest, limits: ConsumeLimits, onIdle: () => void, connect: () => SessionConsumer) {
    this.#request = request;
    this.#limits = limits;
    this.#onIdle = onIdle;
    this.#session = new ConsumerSession(
      request,
      {
        message: (m, bytes) => this.#take(m, bytes),
        end: () => clearTimeout(this.#timeout),
        caughtUp: () => void this.close(consumerStatus.COMPLETED),
      },
      connect,
    );
    this.touch();
  }

  /** RUNNING, COMPLETED, or the text of the error that ended the session. */
  get status(): string {
    return this.#session.reason ?? consumerStatus.RUNNING;
  }

  get running(): boolean {
    return this.#session.reason === undefined;
  }

  /** Creates the consumer and its stream (see ConsumerSession.start); the time limit runs from here. */
  start(topic: string): Promise<void> {
    if (!this.running) return Promise.resolve();
    this.#timeout = setTimeout(
      () => void this.close(consumerStatus.COMPLETED),
      this.#request.maxTimeoutSeconds * 1000,
    ).unref();
    return this.#session.start(topic);
  }

  #take(m: ConsumedMessage, bytes: number): void {
    this.messages.push(m);
    this.#bytes += bytes;
    if (this.messages.length >= this.#request.maxEvents || this.#bytes >= this.#limits.maxBytes)
      void this.close(consumerStatus.COMPLETED);
  }

  /** Restarts the idle clock (on creation and on every read). */
  touch(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(this.#onIdle, this.#limits.idleSeconds * 1000).unref();
  }

  /** Stops consuming and keeps what was read; the first final status wins. */
  close(status: string): Promise<void> {
    return this.#session.close(status);
  }

  /** Closes and forgets the session. */
  dispose(): Promise<void> {
    clearTimeout(this.#idle);
    return this.close(consumerStatus.COMPLETED);
  }
}

/**
 * The consumer sessions of a node (spec: Topics → consume): one per user and topic, replaced by a
 * new POST; bounded by `maxEvents`, `maxTimeoutSeconds`, bytes per session, sessions per user, and
 * an idle expiry after which the session and its messages are dropped.
 */
export class ConsumeSessions {
  readonly #sessions = new Map<string, ConsumeSession>();
  readonly #retiring = new Set<Promise<void>>();
  readonly #connection: Omit<ConsumerOptions, 'groupId'>;
  readonly #groupPrefix: string;
  readonly #limits: ConsumeLimits;

  constructor(connection: Omit<ConsumerOptions, 'groupId'>, groupPrefix: string, limits: ConsumeLimits) {
    this.#connection = connection;
    this.#groupPrefix = groupPrefix;
    this.#limits = limits;
  }

  /**
   * Starts a session for the user and topic, replacing the user's session of that topic. The map is
   * changed before the first await, so overlapping POSTs of one user and topic each replace the one
   * before (the last one stays) and none is left running outside the map. Replaced and evicted
   * sessions stop in the background (a session still starting stops once started): a POST does not
   * wait for the one it replaced.
   */
  async open(username: string, topic: string, request: ConsumeRequest): Promise<void> {
    const id = sessionId(username, topic);
    const previous = this.#sessions.get(id);
    this.#sessions.delete(id);
    if (previous) this.#retire(previous);
    for (const evicted of this.#makeRoom(username)) this.#retire(evicted);
    const groupId = `${this.#groupPrefix}-consume-${username}-${randomUUID()}`;
    const session: ConsumeSession = new ConsumeSession(
      request,
      this.#limits,
      () => {
        if (this.#sessions.get(id) === session) this.#sessions.delete(id);
        this.#retire(session);
      },
      () => kafkaConsumer({ ...this.#connection, groupId } as ConsumerOptions),
    );
    this.#sessions.set(id, session);
    try {
      await session.start(topic);
    } catch (err) {
      if (this.#sessions.get(id) === session) this.#sessions.delete(id);
      await session.dispose();
      throw err;
    }
  }

  /** Disposes a session no longer in the map, in the background; close() waits for it. */
  #retire(session: ConsumeSession): void {
    const disposal = session.dispose().finally(() => this.#retiring.delete(disposal));
    this.#retiring.add(disposal);
  }

  /**
   * Finished sessions of the user give way (oldest first; taken out of the map here, returned to be
   * disposed); running ones count against the limit.
   */
  #makeRoom(username: string): ConsumeSession[] {
    const own = [...this.#sessions.entries()].filter(([id]) => id.startsWith(`${username}\u0000`));
    if (own.length < this.#limits.maxSessionsPerUser) return [];
    const finished = own.filter(([, s]) => !s.running).sort(([, a], [, b]) => a.createdAt - b.createdAt);
    const excess = own.length - this.#limits.maxSessionsPerUser + 1;
    if (finished.length < excess) throw domainError('CONSUMER_LIMIT', this.#limits.maxSessionsPerUser);
    return finished.slice(0, excess).map(([id, session]) => {
      this.#sessions.delete(id);
      return session;
    });
  }

  /** The session's status and its messages from `index` on, or undefined when there is none. */
  read(username: string, topic: string, index: number): { status: string; messages: ConsumedMessage[] } | undefined {
    const session = this.#sessions.get(sessionId(username, topic));
    if (!session) return undefined;
    session.touch();
    return { status: session.status, messages: session.messages.slice(index) };
  }

  /** Number of sessions held (tests, metrics). */
  get size(): number {
    return this.#sessions.size;
  }

  async close(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all([...all.map((s) => s.dispose()), ...this.#retiring]);
  }
}

function sessionId(username: string, topic: string): string {
  return `${username}\u0000${topic}`;
}
