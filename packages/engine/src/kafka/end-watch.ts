/**
 * When a bounded read (consume with `untilEnd`) has everything that was in its partitions when it
 * started: the end offsets are taken once, at the start; a partition is done when a message at or
 * past its last offset has been handed on, or when the consumer's next fetch position has reached
 * the end with nothing left in the stream's buffer (a gap before the end: transaction markers,
 * compacted records). A partition already at its end when the read starts is done at once.
 */
export interface WatchedStream {
  /** The consumer's next fetch offset per `topic:partition` (the Kafka client's MessagesStream). */
  readonly offsetsToFetch?: ReadonlyMap<string, bigint>;
  /** Messages fetched but not yet handed on. */
  readonly readableLength?: number;
}

export class EndWatch {
  readonly #topic: string;
  readonly #ends = new Map<number, bigint>();

  /** `ends`: the end offset of each partition read (by partition number). */
  constructor(topic: string, ends: ReadonlyMap<number, bigint>) {
    this.#topic = topic;
    for (const [partition, end] of ends) if (end > 0n) this.#ends.set(partition, end);
  }

  /** Whether every partition is done. */
  get done(): boolean {
    return this.#ends.size === 0;
  }

  /** A message was handed on; true when that made the read done. */
  message(partition: number, offset: number): boolean {
    const end = this.#ends.get(partition);
    if (end !== undefined && BigInt(offset) >= end - 1n) this.#ends.delete(partition);
    return this.done;
  }

  /** After a fetch or an offset change of the stream; true when the read is done. */
  positions(stream: WatchedStream): boolean {
    if ((stream.readableLength ?? 0) > 0 || !stream.offsetsToFetch) return this.done;
    for (const [partition, end] of this.#ends) {
      const next = stream.offsetsToFetch.get(`${this.#topic}:${partition}`);
      if (next !== undefined && next >= end) this.#ends.delete(partition);
    }
    return this.done;
  }
}
