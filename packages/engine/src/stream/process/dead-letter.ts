import type { OutgoingRecord, SourceRecord } from '../records.ts';

/** The dead-letter topic of an input topic (architecture: Stream runtime). */
export function deadLetterTopic(input: string): string {
  return `${input}-dlq`;
}

export interface DeadLetterCause {
  readonly topology: string;
  /** The failing task, or a stage name such as `decode` or `encode`. */
  readonly task: string;
  readonly error: string;
}

/**
 * The dead-letter record: the original key and value bytes, untouched so they can be replayed, and
 * headers naming the topology, the task, the error and where the record came from.
 */
export function deadLetterRecord(source: SourceRecord, cause: DeadLetterCause): OutgoingRecord {
  const headers = new Map<Buffer, Buffer>([
    [Buffer.from('weir.topology'), Buffer.from(cause.topology)],
    [Buffer.from('weir.task'), Buffer.from(cause.task)],
    [Buffer.from('weir.error'), Buffer.from(cause.error.slice(0, 4000))],
    [Buffer.from('weir.source'), Buffer.from(`${source.topic}/${source.partition}/${source.offset}`)],
  ]);
  return {
    topic: source.deadLetterTo ?? deadLetterTopic(source.topic),
    key: source.key,
    value: source.value ?? Buffer.alloc(0),
    headers,
    timestamp: source.timestamp,
  };
}
