import { ProduceAcks, Producer, type Consumer } from '@platformatic/kafka';
import { brokerErrorId } from '../../kafka/broker-errors.ts';
import { clientDefaultPartitioner } from '../../kafka/murmur2.ts';
import type { FetchedRecord, GroupMetadata, OutgoingRecord } from '../records.ts';
import { sizeBoundedRuns, timestampSafeRuns } from './output-runs.ts';
import type { KafkaConnection } from '../../kafka/client-options.ts';

/** Errors by which the group coordinator says the group rebalanced (or moved on) under a commit. */
export const rebalanceErrors = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'FENCED_INSTANCE_ID',
]);

export interface BatchWriterOptions {
  readonly connection: KafkaConnection;
  readonly clientId: string;
  readonly guarantee: 'at_least_once' | 'exactly_once_v2';
  /** Unique per worker and stable across restarts of the node (fences zombie transactions). */
  readonly transactionalId: string;
}

/** Where the output and dead-letter topics a batch writes to are made to exist (sink-topics.ts). */
export interface OutputTopics {
  ensure(out: readonly OutgoingRecord[]): Promise<void>;
}

/**
 * Writes a batch's output and commits its offsets: under at_least_once, the produce acknowledged
 * (acks=all, in size- and timestamp-safe runs) and then the offsets committed; under
 * exactly_once_v2, both in one Kafka transaction. Output and dead-letter topics are created when missing.
 */
export class BatchWriter {
  readonly #options: BatchWriterOptions;
  readonly #topics: OutputTopics;
  #producer: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;

  constructor(options: BatchWriterOptions, topics: OutputTopics) {
    this.#options = options;
    this.#topics = topics;
  }

  /** Creates the producer; under exactly_once_v2 it also fences this transactional id's previous incarnation. */
  async open(): Promise<void> {
    if (this.#producer) return;
    const o = this.#options;
    this.#producer = new Producer({
      ...o.connection,
      clientId: `${o.clientId}-producer`,
      idempotent: true,
      acks: ProduceAcks.ALL,
      // the client's own placement of keyed records, with a murmur2 that is linear in the key's length
      partitioner: clientDefaultPartitioner(),
      // -1/-1 asks the coordinator for a fresh epoch of this transactional id; the client's default
      // (0/0) claims to be producer 0, which a coordinator that knows the id answers with
      // PRODUCER_FENCED, so a restarted node could never resume its transactions.
      ...(o.guarantee === 'exactly_once_v2'
        ? { transactionalId: o.transactionalId, producerId: -1n, producerEpoch: -1 }
        : {}),
    });
    if (o.guarantee === 'exactly_once_v2') {
      // InitProducerId now, before the consumer joins (Kafka Streams' initTransactions): it fences
      // this transactional id's previous incarnation and aborts its open transaction at once; the
      // client would only send it with the first batch, so a transaction left open by a killed
      // process kept its offsets pending (and other workers waiting) until it timed out.
      const fence = await this.#producer.beginTransaction();
      await fence.cancel();
    }
  }

  async close(): Promise<void> {
    const producer = this.#producer;
    this.#producer = undefined;
    await producer?.close().catch(() => {});
  }

  /**
   * Writes `out` and commits the offsets after `last` (the last processed message per partition)
   * under the generation `group` the batch ran under. Returns undefined when all is committed, or,
   * under at_least_once, the error by which a rebalance refused the commit: the output is written,
   * the offsets are for the caller to commit later. Throws on any other failure (under exactly_once_v2 the transaction is aborted first).
   */
  async write(
    out: OutgoingRecord[],
    last: ReadonlyMap<string, FetchedRecord>,
    group: GroupMetadata | undefined,
    consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined,
  ): Promise<string | undefined> {
    if (this.#options.guarantee === 'exactly_once_v2') {
      await this.#topics.ensure(out);
      const producer = this.#producer!;
      const tx = await producer.beginTransaction();
      try {
        for (const run of sizeBoundedRuns(timestampSafeRuns(out))) if (run.length) await tx.send({ messages: run });
        if (last.size > 0) {
          await tx.addConsumer(consumer!);
          // TxnOffsetCommit takes the group generation and member id from the message's metadata,
          // which the client stamps at fetch time: a record fetched before a rebalance (put back, or
          // already buffered) would carry a generation the coordinator no longer accepts
          // (ILLEGAL_GENERATION, for ever). The offsets go with the generation the batch ran under.
          for (const m of last.values())
            await tx.addOffset(group ? { ...m, metadata: { ...m.metadata, consumer: group } } : m);
        }
        await tx.commit();
      } catch (err) {
        await tx.abort().catch(() => {});
        throw err;
      }
      return undefined;
    }
    await this.produce(out);
    return this.commit(last);
  }

  /**
   * at_least_once: writes `out` (creating missing topics), then, once all of it is acknowledged,
   * `changelog` (the stage state's changes made by the same records); resolves once every record
   * is acknowledged by all in-sync replicas (acks=all, in size- and timestamp-safe runs, in order).
   * A changelog is never ahead of the outputs: one send to several brokers can fail on one and be
   * stored on another, and a changelog record stored without its alert would be restored after the
   * restart ("event counted") and the input read again would not raise the alert again.
   */
  async produce(out: OutgoingRecord[], changelog: OutgoingRecord[] = []): Promise<void> {
    await this.#topics.ensure(changelog.length > 0 ? out.concat(changelog) : out);
    const producer = this.#producer!;
    for (const records of [out, changelog])
      for (const run of sizeBoundedRuns(timestampSafeRuns(records)))
        if (run.length) await producer.send({ messages: run, acks: ProduceAcks.ALL });
  }

  /**
   * at_least_once: commits the offsets after `last` (the last processed message per partition, one
   * OffsetCommit for all). Returns undefined once committed, or the error by which a rebalance
   * refused the commit (the offsets are for the caller to commit later); throws on any other failure.
   */
  async commit(last: ReadonlyMap<string, FetchedRecord>): Promise<string | undefined> {
    try {
      await Promise.all([...last.values()].map((m) => m.commit()));
      return undefined;
    } catch (err) {
      const refusal = brokerErrorId(err);
      if (!refusal || !rebalanceErrors.has(refusal)) throw err;
      return refusal;
    }
  }
}
