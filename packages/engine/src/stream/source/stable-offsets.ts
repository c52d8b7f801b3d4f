import type { Admin } from '@platformatic/kafka';
import { brokerErrorId } from '../../kafka/broker-errors.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The committed offsets of a group's partitions once no transaction that commits offsets for them
 * is still open (OffsetFetch with require_stable, as Kafka's read_committed consumer asks; the
 * client's consumer does not ask, and its stream reads the offsets at the join). Without it, a
 * partition's previous owner whose transaction added its offsets before a rebalance and committed
 * after it had its batch processed again by the new owner: one batch of duplicates in the committed
 * output. Retries UNSTABLE_OFFSET_COMMIT for up to 30 s (far beyond the transaction timeout the
 * client asks, 5 s: an open transaction is aborted by then) while `running()` holds.
 */
export async function stableOffsets(
  admin: Admin,
  groupId: string,
  byTopic: ReadonlyMap<string, number[]>,
  running: () => boolean,
): Promise<Map<string, (bigint | undefined)[]>> {
  const topics = [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const groups = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics }], requireStable: true });
      const result = new Map<string, (bigint | undefined)[]>();
      for (const topic of groups[0]?.topics ?? []) {
        const offsets: (bigint | undefined)[] = [];
        for (const p of topic.partitions) offsets[p.partitionIndex] = p.committedOffset;
        result.set(topic.name, offsets);
      }
      return result;
    } catch (err) {
      if (brokerErrorId(err) !== 'UNSTABLE_OFFSET_COMMIT' || Date.now() > deadline || !running()) throw err;
      await sleep(200);
    }
  }
}
