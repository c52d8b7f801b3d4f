import type { Message, MessageToProduce } from '@platformatic/kafka';

/**
 * The record types every stage of the stream runtime shares (docs/architecture.md, "Stream
 * runtime"): what the source fetches, what the processor reads and what the sink writes.
 */

/** The most records of a batch (the source's under a backlog; at_least_once, the most the sink leaves written and not committed). */
export const defaultMaxBatch = 2000;

/** A record as the source fetched it (an input topic's or a repartition topic's). */
export type FetchedRecord = Message<Buffer, Buffer, Buffer, Buffer>;

/** A record to write: an output, an alert, a dead letter, a repartition or a changelog record. */
export type OutgoingRecord = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/** The input record an event came from: what its dead letters carry. */
export interface SourceRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly key: Buffer | undefined;
  readonly value: Buffer | undefined;
  readonly timestamp: bigint;
  /** Where its dead letters go when not `<topic>-dlq` (a repartition record: its topology input's DLQ). */
  readonly deadLetterTo?: string;
}

/** The consumer's group membership a batch ran under (its offsets are committed under it). */
export interface GroupMetadata {
  readonly groupId: string;
  readonly memberId: string;
  readonly generationId: number;
  readonly coordinatorId: number;
}

/** `topic\0partition`: the key of a partition in the stages' maps and sets. */
export const partitionKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * The Kafka timestamp (ms since the epoch) of the oldest of `records`, undefined when there are
 * none: for the age metrics (weir_record_age_seconds), one comparison per record.
 */
export function oldestTimestamp(records: readonly { readonly timestamp: bigint }[]): number | undefined {
  if (records.length === 0) return undefined;
  let oldest = records[0]!.timestamp;
  for (let i = 1; i < records.length; i++) if (records[i]!.timestamp < oldest) oldest = records[i]!.timestamp;
  return Number(oldest);
}

/** Seconds from `timestamp` to `now` (both ms since the epoch), 0 for a timestamp ahead of the clock. */
export const ageSeconds = (now: number, timestamp: number): number => Math.max(0, now - timestamp) / 1000;
