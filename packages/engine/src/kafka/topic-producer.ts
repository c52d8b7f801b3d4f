import { Producer, ProduceAcks, type ProducerOptions as ClientOptions } from '@platformatic/kafka';
import { javaCompatiblePartitioner } from './murmur2.ts';

type ProducerOptions = ClientOptions<Buffer, Buffer, Buffer, Buffer>;

export interface RecordToProduce {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Records are sent in chunks so that no produce request (and no partition batch) comes near the
 * broker's default `message.max.bytes` of 1 MiB; chunks go one after the other to keep their order.
 */
const chunkBytes = 512 * 1024;
const chunkRecords = 5000;

/** Where a record was written. */
export interface WrittenRecord {
  readonly partition: number;
  readonly offset: number;
}

/**
 * The partition and offset of each record of one send: its partition is the partitioner's choice
 * modulo the partition count (as the client does), and the records of one partition follow each
 * other from the base offset the broker answered for it.
 */
export function writtenAt(
  messages: readonly { key?: Buffer }[],
  bases: readonly { partition: number; offset: bigint }[],
  partitions: number,
): WrittenRecord[] {
  const next = new Map(bases.map((b) => [b.partition, b.offset]));
  return messages.map((m) => {
    const partition = javaCompatiblePartitioner(m, m.key) % partitions;
    const offset = next.get(partition) ?? -1n;
    if (offset >= 0n) next.set(partition, offset + 1n);
    return { partition, offset: Number(offset) };
  });
}

/** The node's one producer for the produce endpoint, created on first use (spec: Topics → produce). */
export class TopicProducer {
  readonly #options: ProducerOptions;
  #producer: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;

  constructor(connection: ProducerOptions) {
    this.#options = connection;
  }

  #client(): Producer {
    // Keys land on the partitions the Java client would pick (murmur2, positive mask).
    this.#producer ??= new Producer<Buffer, Buffer, Buffer, Buffer>({
      ...this.#options,
      acks: ProduceAcks.ALL,
      partitioner: javaCompatiblePartitioner,
      retries: 3,
      retryDelay: 200,
    });
    return this.#producer;
  }

  /**
   * Sends every record to the topic, in order; rejects with the broker's error on a refusal. Answers
   * where each record was written, in the records' order.
   */
  async send(topic: string, records: readonly RecordToProduce[]): Promise<WrittenRecord[]> {
    const producer = this.#client();
    let chunk: { topic: string; key?: Buffer; value?: Buffer; headers?: Map<Buffer, Buffer> }[] = [];
    let bytes = 0;
    const written: WrittenRecord[] = [];
    let partitions: number | undefined;
    const flush = async () => {
      if (chunk.length === 0) return;
      const messages = chunk;
      chunk = [];
      bytes = 0;
      const result = await producer.send({ messages });
      partitions ??= (await producer.metadata({ topics: [topic] })).topics.get(topic)?.partitionsCount ?? 1;
      written.push(...writtenAt(messages, result.offsets ?? [], partitions));
    };
    for (const record of records) {
      const size = (record.key?.length ?? 0) + (record.value?.length ?? 0) + 64;
      if (chunk.length > 0 && (bytes + size > chunkBytes || chunk.length >= chunkRecords)) await flush();
      const message: (typeof chunk)[number] = { topic, key: record.key ?? undefined, value: record.value ?? undefined };
      if (record.headers)
        message.headers = new Map(Object.entries(record.headers).map(([k, v]) => [Buffer.from(k), Buffer.from(v)]));
      chunk.push(message);
      bytes += size;
    }
    await flush();
    return written;
  }

  async close(): Promise<void> {
    await this.#producer?.close();
  }
}
