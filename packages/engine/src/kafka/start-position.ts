import { ListOffsetTimestamps, MessagesStreamModes, type Consumer, type Message } from '@platformatic/kafka';

/**
 * Where a consumer of the topic endpoints starts (docs/api.md, consume and tail): the beginning,
 * the end (fixed when asked, so that what is produced right after is never missed), an offset, or
 * the first message at or after a time; on every partition or on one.
 */
export type StartPosition =
  | { readonly kind: 'earliest' | 'latest'; readonly partition?: number }
  | { readonly kind: 'offset'; readonly offset: number; readonly partition?: number }
  | { readonly kind: 'timestamp'; readonly timestamp: number; readonly partition?: number };

type AnyConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;

/** The consume() options that start at the position; throws a RangeError for a partition the topic lacks. */
export async function startOptions(consumer: AnyConsumer, topic: string, position: StartPosition) {
  if (position.kind === 'earliest' && position.partition === undefined) return { mode: MessagesStreamModes.EARLIEST };
  const ends =
    (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.LATEST })).get(topic) ?? [];
  if (position.partition !== undefined && position.partition >= ends.length) {
    throw new RangeError(
      `partition ${position.partition} does not exist: topic ${topic} has ${ends.length} partition(s) (0 to ${ends.length - 1})`,
    );
  }
  const starts = await wanted(consumer, topic, position, ends);
  // Partitions other than the chosen one start at their end; their messages are dropped anyway.
  const offsets = ends.map((end, partition) => ({
    topic,
    partition,
    offset: position.partition === undefined || position.partition === partition ? starts[partition]! : end,
  }));
  return { mode: MessagesStreamModes.MANUAL, offsets };
}

async function wanted(
  consumer: AnyConsumer,
  topic: string,
  position: StartPosition,
  ends: bigint[],
): Promise<bigint[]> {
  switch (position.kind) {
    case 'latest':
      return ends;
    case 'earliest':
      return (
        (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.EARLIEST })).get(topic) ?? []
      );
    case 'offset': {
      const firsts =
        (await consumer.listOffsets({ topics: [topic], timestamp: ListOffsetTimestamps.EARLIEST })).get(topic) ?? [];
      const at = BigInt(position.offset);
      // An offset past the end waits for new messages; one before the log start begins at it.
      return ends.map((end, p) => (at > end ? end : at < firsts[p]! ? firsts[p]! : at));
    }
    case 'timestamp': {
      const found =
        (await consumer.listOffsets({ topics: [topic], timestamp: BigInt(position.timestamp) })).get(topic) ?? [];
      // -1: no message at or after the time on that partition → its end.
      return ends.map((end, p) => (found[p] === undefined || found[p]! < 0n ? end : found[p]!));
    }
  }
}

/** Whether a fetched message belongs to the position's partition (all do when none was chosen). */
export function inPartition(position: StartPosition, message: Message<Buffer, Buffer, Buffer, Buffer>): boolean {
  return position.partition === undefined || message.partition === position.partition;
}

/** A message's headers as text (UTF-8), in the order they were written; a repeated name keeps the last. */
export function headerText(message: Message<Buffer, Buffer, Buffer, Buffer>): Record<string, string> | undefined {
  const entries = message.headerEntries ?? [...(message.headers?.entries() ?? [])];
  if (entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of entries) out[k.toString('utf8')] = v?.toString('utf8') ?? '';
  return out;
}
