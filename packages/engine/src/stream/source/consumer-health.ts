import type { Consumer, MessagesStream } from '@platformatic/kafka';

/** The payload of the client's `client:broker:*` events. */
type BrokerEvent = { readonly broker?: { readonly host?: string; readonly port?: number } } | undefined;

/** A consumer holding partitions fetches every maxWaitTime (200 ms) even when idle; this long without a fetch is a dead fetch loop. */
export const fetchSilenceMs = 60_000;

/**
 * Signs that a stream worker's consumer stalled without an error: the client's fetch loop can stop
 * for good when a connection it used goes away, and says nothing. The worker asks `failure()` when
 * a wait for records came back empty, and rebuilds its clients when it names one.
 */
export class ConsumerHealth {
  #connectionLost: string | undefined;
  #consumerError: string | undefined;
  #lastFetch = Date.now();
  readonly #onSign: () => void;

  /** `onSign` is called when a connection is lost (to wake the worker's wait for records). */
  constructor(onSign: () => void) {
    this.#onSign = onSign;
  }

  /** Watches a new consumer's broker connections and group joins. */
  watchConsumer(consumer: Consumer<Buffer, Buffer, Buffer, Buffer>): void {
    this.#connectionLost = this.#consumerError = undefined;
    this.#lastFetch = Date.now();
    // Only a broker this consumer was connected to counts: a connection attempt that fails (a dead
    // broker still in the bootstrap list or in stale metadata) is not a stall, the client goes on
    // to the next broker. Counting it made every new consumer give up at once while a broker was
    // down, a restart loop that never let the group settle (each restart rebalanced the others).
    const connected = new Set<string>();
    const brokerOf = (event: BrokerEvent) => `${event?.broker?.host}:${event?.broker?.port}`;
    const lost = (what: string) => (event: BrokerEvent) => {
      if (!connected.has(brokerOf(event))) return;
      this.#connectionLost ??= what;
      this.#onSign();
    };
    consumer.on('client:broker:connect', (event: BrokerEvent) => connected.add(brokerOf(event)));
    consumer.on('client:broker:disconnect', lost('the connection to a broker closed'));
    consumer.on('client:broker:failed', lost('a broker connection failed'));
    // The client's 'error': a rejoin after a failed heartbeat failed (seen with the group's
    // coordinator killed: `Connection closed`). It schedules no more heartbeats, so the member is
    // as good as gone; and an 'error' nobody listens to is an uncaught exception that ends the
    // worker thread (its partitions then wait for the session timeout, its batches half written).
    consumer.on('error', (err: Error) => {
      this.#consumerError ??= `the consumer failed: ${err.message}`;
      this.#connectionLost ??= this.#consumerError;
      this.#onSign();
    });
    // after a join the stream reads its positions before it fetches again
    consumer.on('consumer:group:join', () => (this.#lastFetch = Date.now()));
  }

  /** Watches the consumer's stream: every fetch answered (records or none) is a sign of life. */
  watchStream(stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>): void {
    this.#lastFetch = Date.now();
    stream.on('fetch', () => (this.#lastFetch = Date.now()));
  }

  /** The consumer's own error (it no longer heartbeats): the worker restarts even while records arrive. */
  get consumerError(): string | undefined {
    return this.#consumerError;
  }

  /** A lost connection, whatever the consumer is doing. */
  get connectionLost(): string | undefined {
    return this.#connectionLost;
  }

  /** What stalled, when a wait for records came back empty: a lost connection, or no fetch for fetchSilenceMs while holding partitions. */
  failure(consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined, now = Date.now()): string | undefined {
    if (this.#connectionLost !== undefined) return this.#connectionLost;
    const holding = consumer?.assignments?.some((a) => a.partitions.length > 0) ?? false;
    if (holding && now - this.#lastFetch > fetchSilenceMs)
      return `the consumer fetched nothing for ${Math.round((now - this.#lastFetch) / 1000)} s while holding partitions`;
    return undefined;
  }
}
