import { FetchIsolationLevels, type Consumer, type RecordsBatch } from '@platformatic/kafka';
import { dropAbortedRecords } from '../../kafka/aborted-transactions.ts';
import { visitRecords } from '../../kafka/record-batches.ts';

/** A restore that reads nothing new for this long fails (and the worker starts over). */
const stallMs = 30_000;

/**
 * Reads one partition of a changelog topic from its first to its last offset (the last stable
 * offset under read_committed: aborted transactions are left out) and hands every record to
 * `apply`, in order. Uses plain fetches: the consumer never joins a group. Returns the records read.
 */
export async function readChangelog(
  consumer: Consumer<Buffer, Buffer, Buffer, Buffer>,
  topic: string,
  partition: number,
  readCommitted: boolean,
  apply: (key: Buffer, value: Buffer | null) => void,
): Promise<number> {
  const isolationLevel = readCommitted ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED;
  consumer.topics.trackAll(topic);
  const [starts, ends] = await Promise.all([
    consumer.listOffsets({ topics: [topic], timestamp: -2n, isolationLevel }),
    consumer.listOffsets({ topics: [topic], isolationLevel }),
  ]);
  let position = starts.get(topic)?.[partition] ?? 0n;
  const end = ends.get(topic)?.[partition] ?? 0n;
  let count = 0;
  let progressAt = Date.now();
  while (position < end) {
    // records below the end that no fetch returns (a new leader whose high watermark is behind): not for ever
    if (Date.now() - progressAt > stallMs)
      throw new Error(
        `restoring ${topic}-${partition} made no progress for ${stallMs / 1000} s at offset ${position} of ${end}`,
      );
    const metadata = await consumer.metadata({ topics: [topic] });
    const info = metadata.topics.get(topic);
    const leader = info?.partitions[partition]?.leader;
    if (!info || leader === undefined) throw new Error(`changelog ${topic} has no leader for partition ${partition}`);
    const response = await consumer.fetch({
      node: leader,
      maxWaitTime: 100,
      minBytes: 1,
      maxBytes: 32 * 1024 * 1024,
      isolationLevel,
      topics: [
        {
          topicId: info.id,
          partitions: [
            {
              partition,
              fetchOffset: position,
              partitionMaxBytes: 32 * 1024 * 1024,
              currentLeaderEpoch: -1,
              lastFetchedEpoch: -1,
            },
          ],
        },
      ],
    });
    // the broker leaves aborted transactions' records in a read_committed fetch: the state of a batch whose transaction was aborted is not restored
    if (readCommitted) dropAbortedRecords(response);
    for (const topicResponse of response.responses) {
      for (const p of topicResponse.partitions) {
        if (p.partitionIndex !== partition) continue;
        if (p.errorCode !== 0)
          throw new Error(`restoring ${topic}-${partition} failed with Kafka error code ${p.errorCode}`);
        const from = position;
        position = visitRecords((p.records ?? []) as readonly RecordsBatch[], position, (offset, record) => {
          if (offset >= end || !record.key) return;
          apply(record.key, record.value ?? null);
          count++;
        });
        if (position > from) progressAt = Date.now();
      }
    }
  }
  return count;
}
