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

/** One live tail: a ConsumerSession of its own group, pushing each message to its sink. */
export class Tail {
  readonly #session: ConsumerSession;
  readonly #onClose: () => void;
  /** A tail that failed to start ends without a word to its sink: the endpoint answers the error. */
  #muted = false;

  constructor(sink: TailSink, request: TailRequest, onClose: () => void, connect: () => SessionConsumer) {
    this.#onClose = onClose;
    this.#session = new ConsumerSession(
      request,
      {
        message: (m) => {
          if (!sink.message(m)) this.#session.pause();
        },
        end: (reason) => {
          this.#onClose();
          if (!this.#muted) sink.end(reason);
        },
      },
      connect,
    );
  }

  /** Creates the consumer and its stream (see ConsumerSession.start). */
  start(topic: string): Promise<void> {
    return this.#session.start(topic);
  }

  /** The receiver drained: fetch again. */
  resume(): void {
    this.#session.resume();
  }

  /** Ends the tail once; the sink hears the reason. */
  close(reason: string): Promise<void> {
    return this.#session.close(reason);
  }

  /** Ends a tail whose start failed, without telling its sink (nothing was sent to the receiver yet). */
  abandon(): Promise<void> {
    this.#muted = true;
    return this.#session.close('closed');
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
    const forget = () => {
      own.delete(tail);
      if (own.size === 0 && this.#open.get(username) === own) this.#open.delete(username);
    };
    const groupId = `${this.#groupPrefix}-tail-${username}-${randomUUID()}`;
    const tail: Tail = new Tail(sink, request, forget, () =>
      kafkaConsumer({ ...this.#connection, groupId } as ConsumerOptions),
    );
    own.add(tail);
    this.#open.set(username, own);
    try {
      await tail.start(topic);
    } catch (err) {
      forget();
      await tail.abandon();
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
