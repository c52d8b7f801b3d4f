import type { Consumer, RecordsBatch } from '@platformatic/kafka';

const IS_TRANSACTIONAL = 0x10;
const IS_CONTROL = 0x20;

/** The part of a fetch response's partition that tells aborted transactions apart. */
interface FetchedPartition {
  readonly abortedTransactions?: readonly { readonly producerId: bigint; readonly firstOffset: bigint }[] | null;
  readonly records?: readonly RecordsBatch[] | null;
}

interface FetchedResponse {
  readonly responses: readonly { readonly partitions: readonly FetchedPartition[] }[];
}

/**
 * Empties, in a read_committed fetch response, the record batches of aborted transactions. The
 * broker stops a read_committed fetch at the last stable offset but leaves aborted records in it,
 * with the list of aborted transactions beside them: the client must drop them (as Kafka's Java
 * consumer and librdkafka do). @platformatic/kafka does not, so its "read_committed" reader hands
 * out the records of aborted transactions. A batch is emptied, not removed, so that the reader's
 * next fetch offset still moves past it. Returns how many records were dropped.
 */
export function dropAbortedRecords(response: FetchedResponse): number {
  let dropped = 0;
  for (const topic of response.responses) {
    for (const partition of topic.partitions) {
      const aborted = [...(partition.abortedTransactions ?? [])].sort((a, b) =>
        a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0,
      );
      if (aborted.length === 0 || !partition.records) continue;
      const open = new Set<bigint>();
      let next = 0;
      for (const batch of partition.records) {
        const last = batch.firstOffset + BigInt(batch.lastOffsetDelta);
        while (next < aborted.length && aborted[next]!.firstOffset <= last) open.add(aborted[next++]!.producerId);
        if (!open.has(batch.producerId)) continue;
        // a control batch of a producer whose transaction is aborted here is that transaction's abort marker
        if (batch.attributes & IS_CONTROL) open.delete(batch.producerId);
        else if (batch.attributes & IS_TRANSACTIONAL) {
          dropped += batch.records.length;
          (batch as { records: RecordsBatch['records'] }).records = [];
        }
      }
    }
  }
  return dropped;
}

/**
 * Makes a consumer's fetches (those of its message streams too) drop the records of aborted
 * transactions, so that a read_committed consumer reads committed records only.
 */
export function dropAbortedOnFetch<C extends Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'fetch'>>(consumer: C): C {
  const fetch = consumer.fetch.bind(consumer) as (
    options: unknown,
    callback: (error: Error | null, response?: FetchedResponse) => void,
  ) => void;
  const patched = (options: unknown, callback?: (error: Error | null, response?: FetchedResponse) => void): unknown => {
    if (!callback) {
      return new Promise((resolve, reject) =>
        fetch(options, (error, response) => {
          if (error) reject(error);
          else {
            if (response) dropAbortedRecords(response);
            resolve(response);
          }
        }),
      );
    }
    fetch(options, (error, response) => {
      if (!error && response) dropAbortedRecords(response);
      callback(error, response);
    });
    return undefined;
  };
  (consumer as { fetch: unknown }).fetch = patched;
  return consumer;
}
