import type { Admin } from '@platformatic/kafka';

/** The offsets a consumer group committed on partitions 0 … `partitions` − 1 of a topic, summed (nothing committed: 0). */
export async function committedSum(admin: Admin, group: string, topic: string, partitions = 2): Promise<number> {
  const [result] = await admin.listConsumerGroupOffsets({
    groups: [
      { groupId: group, topics: [{ name: topic, partitionIndexes: Array.from({ length: partitions }, (_, p) => p) }] },
    ],
  } as never);
  let sum = 0;
  for (const t of (result as { topics?: { partitions: { committedOffset: bigint }[] }[] } | undefined)?.topics ?? [])
    for (const p of t.partitions) if (p.committedOffset > 0n) sum += Number(p.committedOffset);
  return sum;
}

/** The end offsets of partitions 0 … `partitions` − 1 of a topic, in partition order. */
export async function endOffsets(admin: Admin, topic: string, partitions = 2): Promise<number[]> {
  const listed = await admin.listOffsets({
    topics: [
      {
        name: topic,
        partitions: Array.from({ length: partitions }, (_, partitionIndex) => ({ partitionIndex, timestamp: -1n })),
      },
    ],
  });
  return (listed[0]?.partitions ?? []).sort((a, b) => a.partitionIndex - b.partitionIndex).map((p) => Number(p.offset));
}
