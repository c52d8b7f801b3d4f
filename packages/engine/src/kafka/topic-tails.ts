import { randomUUID } from 'node:crypto';
import {
  Consumer,
  type ConsumerOptions as ClientOptions,
  type Message,
  type MessagesStream,
} from '@platformatic/kafka';
import { domainError } from '../core/errors.ts';
import { brokerReason } from './broker-errors.ts';
import type { SerdeType } from './serdes.ts';
import { inPartition, startOptions, type StartPosition } from './start-position.ts';
import { consumedMessage, type ConsumedMessage } from './consume-sessions.ts';

type ConsumerOptions = ClientOptions<Buffer, Buffer, Buffer, Buffer>;

export interface TailSink {
  /** One message; returns false when the receiver is slow (the tail pauses until `resume`). */
  message(m: ConsumedMessage): boolean;
  /** The tail ended (error text, or 'closed'). */
  end(reason: string): void;
}

export interface TailRequest {
  readonly keyType: SerdeType;
  readonly valueType: SerdeType;
  readonly start: StartPosition;
}

/** One live tail: a consumer of its own group, no commits, pushing each message to its sink. */
export class Tail {
  readonly #sink: TailSink;
  readonly #request: TailRequest;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #closed = false;
  #onClose: () => void = () => {};

  constructor(sink: TailSink, request: TailRequest) {
    this.#sink = sink;
    this.#request = request;
  }

  async start(connection: ConsumerOptions, topic: string, onClose: () => void): Promise<void> {
    this.#onClose = onClose;
    const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...connection,
      autocommit: false,
      maxWaitTime: 500,
    });
    this.#consumer = consumer;
    const start = await startOptions(consumer, topic, this.#request.start);
    const stream = await consumer.consume({ topics: [topic], ...start, autocommit: false });
    this.#stream = stream;
    if (this.#closed) {
      await this.#shutdown();
      return;
    }
    stream.on('data', (message: Message) => this.#take(message));
    stream.on('error', (err: Error) => void this.close(brokerReason(err)));
  }

  #take(message: Message): void {
    if (this.#closed || !inPartition(this.#request.start, message)) return;
    let m: ConsumedMessage;
    try {
      m = consumedMessage(message, this.#request.keyType, this.#request.valueType);
    } catch (err) {
      void this.close((err as Error).message);
      return;
    }
    if (!this.#sink.message(m)) this.#stream?.pause();
  }

  /** The receiver drained: fetch again. */
  resume(): void {
    if (!this.#closed) this.#stream?.resume();
  }

  /** Ends the tail once; the sink hears the reason. */
  close(reason: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#onClose();
    this.#sink.end(reason);
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#shutdown());
  }

  async #shutdown(): Promise<void> {
    try {
      this.#stream?.pause();
      await this.#stream?.close();
      await this.#consumer?.close(true);
    } catch {
      // gone either way
    }
  }
}

/**
 * The live tails of a node (server-sent events of a topic or of the alerts, docs/api.md): at most
 * `maxPerUser` open per user; each closes when its receiver goes, when the access token that
 * opened it expires, or when the node stops.
 */
export class TopicTails {
  readonly #open = new Map<string, Set<Tail>>();
  readonly #connection: Omit<ConsumerOptions, 'groupId'>;
  readonly #groupPrefix: string;
  readonly #maxPerUser: number;

  constructor(connection: Omit<ConsumerOptions, 'groupId'>, groupPrefix: string, maxPerUser: number) {
    this.#connection = connection;
    this.#groupPrefix = groupPrefix;
    this.#maxPerUser = maxPerUser;
  }

  /** Opens a tail for the user, or throws TAIL_LIMIT (400) when the user has the most open. */
  async open(username: string, topic: string, request: TailRequest, sink: TailSink): Promise<Tail> {
    const own = this.#open.get(username) ?? new Set<Tail>();
    if (own.size >= this.#maxPerUser) throw domainError('TAIL_LIMIT', this.#maxPerUser);
    const tail = new Tail(sink, request);
    own.add(tail);
    this.#open.set(username, own);
    const forget = () => {
      own.delete(tail);
      if (own.size === 0 && this.#open.get(username) === own) this.#open.delete(username);
    };
    try {
      await tail.start(
        { ...this.#connection, groupId: `${this.#groupPrefix}-tail-${username}-${randomUUID()}` } as ConsumerOptions,
        topic,
        forget,
      );
    } catch (err) {
      forget();
      await tail.close('closed');
      throw err;
    }
    return tail;
  }

  /** Open tails of a user (tests, limits). */
  count(username: string): number {
    return this.#open.get(username)?.size ?? 0;
  }

  async close(): Promise<void> {
    const all = [...this.#open.values()].flatMap((s) => [...s]);
    this.#open.clear();
    await Promise.all(all.map((t) => t.close('the node is stopping')));
  }
}
