import {
  Consumer,
  ListOffsetTimestamps,
  type ConsumerOptions as ClientOptions,
  type Message,
} from '@platformatic/kafka';
import { brokerReason } from './broker-errors.ts';
import { EndWatch, type WatchedStream } from './end-watch.ts';
import { deserialize } from './serde-codecs.ts';
import type { SerdeType } from './serdes.ts';
import { headerText, inPartition, startOptions, type StartPosition } from './start-position.ts';

export type ConsumerOptions = ClientOptions<Buffer, Buffer, Buffer, Buffer>;

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

/** What a session reads and how (the part of a consume or tail request the consumer itself needs). */
export interface SessionRequest {
  readonly keyType: SerdeType;
  readonly valueType: SerdeType;
  readonly start: StartPosition;
  /** Stop once the partitions read hold nothing more than when the read started (EndWatch). */
  readonly untilEnd?: boolean;
}

/** What the session tells its owner. */
export interface SessionEvents {
  /** A message of the position's partition, read by the serdes, and its key + value bytes. */
  message(m: ConsumedMessage, bytes: number): void;
  /** The session ended: called once, at once, with the first reason it was closed for. */
  end(reason: string): void;
  /** With `untilEnd`: everything up to the end offsets at the start has been handed on (once). */
  caughtUp?(): void;
}

/** The message stream of a consumer, as far as a session uses it. */
export interface SessionStream {
  on(event: 'data', listener: (message: Message) => void): unknown;
  /** After each fetch, and when the client fixes its fetch positions (read by an EndWatch). */
  on(event: 'fetch' | 'offsets', listener: () => void): unknown;
  pause(): unknown;
  resume(): unknown;
  close(): Promise<unknown>;
}

/** A consumer of one topic, as far as a session uses it (a Kafka one: kafkaConsumer; tests: a fake). */
export interface SessionConsumer {
  /**
   * Fixes the start position and creates the stream; `onError` listens to the stream's 'error'
   * from the moment it exists. Rejects when the position or the stream cannot be had.
   */
  stream(topic: string, start: StartPosition, onError: (err: Error) => void): Promise<SessionStream>;
  /** The end offset of each partition the position reads, now (needed for `untilEnd`). */
  endOffsets?(topic: string, start: StartPosition): Promise<Map<number, bigint>>;
  close(): Promise<unknown>;
}

/** A Kafka consumer for a session: no commits, short fetch waits (a stop is never held long). */
export function kafkaConsumer(connection: ConsumerOptions): SessionConsumer {
  const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({ ...connection, autocommit: false, maxWaitTime: 500 });
  return {
    async stream(topic, start, onError) {
      // `latest` means "what is produced after the answer": the end offsets are fixed here, before
      // the owner answers, not when the stream first fetches (which a produce right after could beat).
      const options = await startOptions(consumer, topic, start);
      return new Promise<SessionStream>((resolve, reject) =>
        consumer.consume({ topics: [topic], ...options, autocommit: false }, (err, created) => {
          if (err || !created) return reject(err ?? new Error('the consumer gave no stream'));
          // At once, in the callback that creates the stream: a stream that fails as it constructs
          // emits 'error' on the next tick, before an awaiting caller could listen, and an 'error'
          // nobody listens to would end the node's process.
          created.on('error', onError);
          resolve(created);
        }),
      );
    },
    async endOffsets(topic, start) {
      const ends =
        (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.LATEST })).get(topic) ?? [];
      return new Map(
        ends
          .map((end, partition) => [partition, end] as [number, bigint])
          .filter(([partition]) => start.partition === undefined || start.partition === partition),
      );
    },
    close: () => consumer.close(true),
  };
}

/**
 * The skeleton of a consumer session, shared by the consume sessions and the live tails: a consumer
 * of its own group from a start position, its messages read by the serdes and passed on, closed once
 * (by its owner, a stream error or a message the serdes cannot read) with the first reason.
 */
export class ConsumerSession {
  readonly #request: SessionRequest;
  readonly #events: SessionEvents;
  readonly #connect: () => SessionConsumer;
  #reason: string | undefined;
  #consumer: SessionConsumer | undefined;
  #stream: SessionStream | undefined;
  #watch: EndWatch | undefined;
  #started: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(request: SessionRequest, events: SessionEvents, connect: () => SessionConsumer) {
    this.#request = request;
    this.#events = events;
    this.#connect = connect;
  }

  /** Why the session ended; undefined while it runs. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /**
   * Creates the consumer and its stream. A session closed before it starts creates nothing. A close
   * while it starts does not cut the start short: closing a consumer in the middle of its group join
   * left it heartbeating forever (a timer per session, and its requests failed as "Connection
   * closed", read as an unreachable cluster: the fuzz suite's 503s); #shutdown waits for the start,
   * then stops what it made. A failed start rejects; its owner closes the session.
   */
  start(topic: string): Promise<void> {
    if (this.#reason !== undefined) return Promise.resolve();
    this.#started = this.#start(topic);
    return this.#started;
  }

  async #start(topic: string): Promise<void> {
    const consumer = this.#connect();
    this.#consumer = consumer;
    // The ends before the stream: with `latest`, the start is then at or past them (nothing to read).
    if (this.#request.untilEnd) {
      if (!consumer.endOffsets) throw new Error('this consumer cannot read to the end offsets');
      this.#watch = new EndWatch(topic, await consumer.endOffsets(topic, this.#request.start));
    }
    const stream = await consumer.stream(topic, this.#request.start, (e) => void this.close(brokerReason(e)));
    this.#stream = stream;
    // Closed (replaced, expired, node stopping) while starting: #shutdown stops the stream.
    if (this.#reason !== undefined) return;
    stream.on('data', (message: Message) => this.#take(message));
    const watch = this.#watch;
    if (!watch) return;
    if (watch.done) return this.#caughtUp();
    // After the client has handled the fetch (it emits 'fetch' before it pushes the records).
    const check = () =>
      setImmediate(() => {
        if (watch.positions(stream as WatchedStream)) this.#caughtUp();
      });
    stream.on('fetch', check);
    stream.on('offsets', check);
  }

  #caughtUp(): void {
    if (this.#reason === undefined) this.#events.caughtUp?.();
  }

  #take(message: Message): void {
    if (this.#reason !== undefined || !inPartition(this.#request.start, message)) return;
    let m: ConsumedMessage;
    try {
      m = consumedMessage(message, this.#request.keyType, this.#request.valueType);
    } catch (err) {
      void this.close((err as Error).message);
      return;
    }
    this.#events.message(m, (message.key?.length ?? 0) + (message.value?.length ?? 0));
    if (this.#watch?.message(m.partition, m.offset)) this.#caughtUp();
  }

  /** Stops fetching (the receiver is slow) until resume. */
  pause(): void {
    this.#stream?.pause();
  }

  /** Fetches again, unless the session has ended. */
  resume(): void {
    if (this.#reason === undefined) this.#stream?.resume();
  }

  /**
   * Ends the session: the first call sets the reason and tells the owner; every call returns the
   * one shutdown of the stream and the consumer, which runs once a start in progress is done.
   */
  close(reason: string): Promise<void> {
    if (this.#reason === undefined) {
      this.#reason = reason;
      this.#events.end(reason);
    }
    // Not from inside the stream's 'data' handler: the stream must stop first, then the consumer.
    this.#closing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#shutdown());
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    // A start in progress finishes first (its failure is the owner's answer, not the close's concern).
    await this.#started?.catch(() => undefined);
    // Each step on its own: a stream that fails to close still has its consumer closed.
    try {
      this.#stream?.pause();
      await this.#stream?.close();
    } catch {
      // The consumer below stops the fetches either way.
    }
    try {
      await this.#consumer?.close();
    } catch {
      // The consumer is gone either way; its group has no committed offsets to clean up.
    }
  }
}
