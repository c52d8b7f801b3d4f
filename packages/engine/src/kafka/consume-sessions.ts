import { randomUUID } from 'node:crypto';
import {
  Consumer,
  type ConsumerOptions as ClientOptions,
  type Message,
  type MessagesStream,
} from '@platformatic/kafka';
import { domainError } from '../core/errors.ts';
import { brokerReason } from './broker-errors.ts';
import { deserialize } from './serde-codecs.ts';
import type { SerdeType } from './serdes.ts';
import { headerText, inPartition, startOptions, type StartPosition } from './start-position.ts';

type ConsumerOptions = ClientOptions<Buffer, Buffer, Buffer, Buffer>;

/** Spec: States and transitions → Consumer. Any other status is the text of the error that ended it. */
export const consumerStatus = { CREATED: 'CREATED', RUNNING: 'RUNNING', COMPLETED: 'COMPLETED' } as const;

export interface ConsumeRequest {
  readonly keyType: SerdeType;
  readonly valueType: SerdeType;
  readonly maxEvents: number;
  readonly maxTimeoutSeconds: number;
  /** Where to start (spec: `offset` earliest/latest; docs/api.md: an offset, a time, one partition). */
  readonly start: StartPosition;
}

export interface ConsumedMessage {
  readonly key: unknown;
  readonly value: unknown;
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly headers?: Record<string, string>;
}

/**
 * A fetched message as the consume API answers it (key and value by their serdes, headers as text);
 * throws an Error naming the partition and offset when a serde cannot read it.
 */
export function consumedMessage(message: Message, keyType: SerdeType, valueType: SerdeType): ConsumedMessage {
  let key: unknown;
  let value: unknown;
  try {
    key = deserialize(keyType, message.key);
    value = deserialize(valueType, message.value);
  } catch (err) {
    throw new Error(`${(err as Error).message} (partition ${message.partition}, offset ${message.offset})`, {
      cause: err,
    });
  }
  const headers = headerText(message);
  const m = {
    key,
    value,
    partition: message.partition,
    offset: Number(message.offset),
    timestamp: Number(message.timestamp),
  };
  return headers ? { ...m, headers } : m;
}

export interface ConsumeLimits {
  readonly maxSessionsPerUser: number;
  readonly idleSeconds: number;
  /** Key + value bytes one session keeps before it completes. */
  readonly maxBytes: number;
}

/** One user's consumer of one topic: a fresh consumer group that collects up to maxEvents messages. */
class ConsumeSession {
  status: string = consumerStatus.RUNNING;
  readonly messages: ConsumedMessage[] = [];
  readonly createdAt = Date.now();
  #bytes = 0;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #timeout: NodeJS.Timeout | undefined;
  #idle: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;
  #started: Promise<void> | undefined;
  readonly #request: ConsumeRequest;
  readonly #limits: ConsumeLimits;
  readonly #onIdle: () => void;

  constructor(request: ConsumeRequest, limits: ConsumeLimits, onIdle: () => void) {
    this.#request = request;
    this.#limits = limits;
    this.#onIdle = onIdle;
    this.touch();
  }

  get running(): boolean {
    return this.status === consumerStatus.RUNNING;
  }

  /**
   * Creates the consumer and its stream. A session closed before it starts (replaced while its POST
   * still waited) creates nothing. A close while it starts does not cut the start short: closing a
   * consumer in the middle of its group join left it heartbeating forever (a timer per session, and
   * its requests failed as "Connection closed", read as an unreachable cluster: the fuzz suite's
   * 503s); #shutdown waits for the start, then stops what it made.
   */
  start(connection: ConsumerOptions, topic: string): Promise<void> {
    if (!this.running) return Promise.resolve();
    this.#started = this.#start(connection, topic);
    return this.#started;
  }

  async #start(connection: ConsumerOptions, topic: string): Promise<void> {
    const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...connection,
      autocommit: false,
      maxWaitTime: 500,
    });
    this.#consumer = consumer;
    this.#timeout = setTimeout(
      () => void this.close(consumerStatus.COMPLETED),
      this.#request.maxTimeoutSeconds * 1000,
    ).unref();
    // `latest` means "what is produced after the 201": the end offsets are fixed here, before the
    // answer, not when the stream first fetches (which a produce right after the 201 could beat).
    const start = await startOptions(consumer, topic, this.#request.start);
    this.#stream = await new Promise<MessagesStream<Buffer, Buffer, Buffer, Buffer>>((resolve, reject) =>
      consumer.consume({ topics: [topic], ...start, autocommit: false }, (err, created) => {
        if (err || !created) return reject(err ?? new Error('the consumer gave no stream'));
        // At once, in the callback that creates the stream: a stream that fails as it constructs
        // emits 'error' on the next tick, before an awaiting caller could listen, and an 'error'
        // nobody listens to would end the node's process.
        created.on('error', (e: Error) => void this.close(brokerReason(e)));
        resolve(created);
      }),
    );
    // Closed (replaced, expired, node stopping) while starting: #shutdown stops the stream.
    if (!this.running) return;
    this.#stream.on('data', (message: Message) => this.#take(message));
  }

  #take(message: Message): void {
    if (!this.running || !inPartition(this.#request.start, message)) return;
    let m: ConsumedMessage;
    try {
      m = consumedMessage(message, this.#request.keyType, this.#request.valueType);
    } catch (err) {
      void this.close((err as Error).message);
      return;
    }
    this.messages.push(m);
    this.#bytes += (message.key?.length ?? 0) + (message.value?.length ?? 0);
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
    if (this.running) this.status = status;
    clearTimeout(this.#timeout);
    // Not from inside the stream's 'data' handler: the stream must stop first, then the consumer.
    this.#closing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#shutdown());
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    // A start in progress finishes first (its failure is the POST's answer, not the close's concern).
    await this.#started?.catch(() => undefined);
    try {
      this.#stream?.pause();
      await this.#stream?.close();
      await this.#consumer?.close(true);
    } catch {
      // The consumer is gone either way; its group has no committed offsets to clean up.
    }
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
    const session: ConsumeSession = new ConsumeSession(request, this.#limits, () => {
      if (this.#sessions.get(id) === session) this.#sessions.delete(id);
      this.#retire(session);
    });
    this.#sessions.set(id, session);
    try {
      await session.start(
        { ...this.#connection, groupId: `${this.#groupPrefix}-consume-${username}-${randomUUID()}` } as ConsumerOptions,
        topic,
      );
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
