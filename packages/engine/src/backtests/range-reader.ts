import {
  Consumer,
  FetchIsolationLevels,
  ListOffsetTimestamps,
  type ConsumerOptions,
  type RecordsBatch,
} from '@platformatic/kafka';
import { dropAbortedRecords } from '../kafka/aborted-transactions.ts';
import { visitRecords } from '../kafka/record-batches.ts';
import type { FetchedRecord } from '../stream/records.ts';

/** One partition's part of a backtest's range: offsets from `start` (included) to `end` (excluded). */
export interface PartitionRange {
  readonly partition: number;
  readonly start: bigint;
  readonly end: bigint;
}

const offsetOutOfRange = 1;

/**
 * Reads a range of a topic for a backtest, committed records only, outside every consumer group
 * (plain ListOffsets and Fetch requests, as the alert store's follower: nothing is joined or
 * committed). Times are resolved to offsets with ListOffsets by timestamp: a partition's range
 * starts at its first record at or after `from` and ends before its first record after `to`.
 * The partitions are merged by record timestamp (ties: partition, then offset), so a run is
 * deterministic and stream time moves forward as it does when the engine reads a topic in order.
 */
export class RangeReader {
  readonly #consumer: Consumer<Buffer, Buffer, Buffer, Buffer>;

  /** `connection.groupId` is required by the client and never joined. */
  constructor(connection: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) {
    this.#consumer = new Consumer(connection);
  }

  async close(): Promise<void> {
    await this.#consumer.close(true).catch(() => {});
  }

  async #offsets(topic: string, timestamp: bigint): Promise<bigint[]> {
    const found = await this.#consumer.listOffsets({
      topics: [topic],
      timestamp,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    });
    return [...(found.get(topic) ?? [])];
  }

  /** Each partition's [first, end) offsets now (end: the last stable offset). */
  async bounds(topic: string): Promise<{ first: bigint[]; end: bigint[] }> {
    const [first, end] = await Promise.all([
      this.#offsets(topic, ListOffsetTimestamps.EARLIEST),
      this.#offsets(topic, ListOffsetTimestamps.LATEST),
    ]);
    return { first, end };
  }

  /** The offsets of a time range, per partition (from and to in epoch ms, both included). */
  async timeRange(topic: string, from: number, to: number): Promise<PartitionRange[]> {
    const { end } = await this.bounds(topic);
    const [starts, ends] = await Promise.all([
      this.#offsets(topic, BigInt(from)),
      this.#offsets(topic, BigInt(to) + 1n),
    ]);
    // -1: no record at or after the time on that partition → its end
    const at = (found: bigint | undefined, p: number) => (found === undefined || found < 0n ? end[p]! : found);
    return end.map((_, p) => ({ partition: p, start: at(starts[p], p), end: at(ends[p], p) }));
  }

  /** The ranges of each partition's last `count` records (fewer where a partition holds fewer). */
  async lastRanges(topic: string, count: number): Promise<PartitionRange[]> {
    const { first, end } = await this.bounds(topic);
    const n = BigInt(count);
    return end.map((e, p) => {
      const low = first[p] ?? 0n;
      return { partition: p, start: e - n > low ? e - n : low, end: e };
    });
  }

  /**
   * The topic's most recent `count` records, oldest first: each partition's last `count` read and
   * merged by timestamp, the newest `count` of them kept (the lint's sample of a topic). Stops early,
   * with what it read, when `signal` aborts.
   */
  async recent(topic: string, count: number, signal: AbortSignal): Promise<FetchedRecord[]> {
    const out: FetchedRecord[] = [];
    for await (const chunk of this.read(topic, await this.lastRanges(topic, count), signal)) {
      out.push(...chunk);
      if (out.length > count) out.splice(0, out.length - count);
    }
    return out;
  }

  /** The records of the ranges, merged by timestamp, in chunks; stops early when `signal` aborts. */
  async *read(topic: string, ranges: readonly PartitionRange[], signal: AbortSignal): AsyncGenerator<FetchedRecord[]> {
    const position = new Map(ranges.filter((r) => r.end > r.start).map((r) => [r.partition, r.start]));
    const ends = new Map(ranges.map((r) => [r.partition, r.end]));
    const buffers = new Map<number, FetchedRecord[]>([...position.keys()].map((p) => [p, []]));
    while (buffers.size > 0 && !signal.aborted) {
      const wanted = [...buffers].filter(([p, b]) => b.length === 0 && position.has(p)).map(([p]) => p);
      if (wanted.length > 0) await this.#fetch(topic, wanted, position, ends, buffers);
      const out: FetchedRecord[] = [];
      // merge while every partition still to read has a record waiting
      for (;;) {
        let best: FetchedRecord | undefined;
        let blocked = false;
        for (const [p, buffer] of buffers) {
          const head = buffer[0];
          if (head === undefined) {
            if (position.has(p)) blocked = true;
            else buffers.delete(p);
            continue;
          }
          if (best === undefined || head.timestamp < best.timestamp) best = head;
        }
        if (blocked || best === undefined) break;
        out.push(buffers.get(best.partition)!.shift()!);
      }
      if (out.length > 0) yield out;
    }
  }

  async #fetch(
    topic: string,
    partitions: readonly number[],
    position: Map<number, bigint>,
    ends: ReadonlyMap<number, bigint>,
    buffers: Map<number, FetchedRecord[]>,
  ): Promise<void> {
    const metadata = await this.#consumer.metadata({ topics: [topic] });
    const info = metadata.topics.get(topic);
    if (!info) throw new Error(`topic ${topic} does not exist (any more)`);
    const byLeader = new Map<number, number[]>();
    for (const p of partitions) {
      const leader = info.partitions[p]?.leader;
      if (leader === undefined) throw new Error(`partition ${p} of ${topic} does not exist (any more)`);
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), p]);
    }
    await Promise.all(
      [...byLeader].map(async ([node, list]) => {
        const response = await this.#consumer.fetch({
          node,
          maxWaitTime: 100,
          minBytes: 1,
          maxBytes: 16 * 1024 * 1024,
          isolationLevel: FetchIsolationLevels.READ_COMMITTED,
          topics: [
            {
              topicId: info.id,
              partitions: list.map((partition) => ({
                partition,
                fetchOffset: position.get(partition)!,
                partitionMaxBytes: 4 * 1024 * 1024,
                currentLeaderEpoch: -1,
                lastFetchedEpoch: -1,
              })),
            },
          ],
        });
        dropAbortedRecords(response);
        for (const t of response.responses)
          for (const part of t.partitions) {
            const p = part.partitionIndex;
            const from = position.get(p);
            if (from === undefined) continue;
            if (part.errorCode === offsetOutOfRange)
              throw new Error(`${topic}/${p}: offset ${from} is no longer in the topic (deleted by its retention)`);
            if (part.errorCode !== 0) throw new Error(`fetch of ${topic}/${p}: Kafka error ${part.errorCode}`);
            const end = ends.get(p)!;
            const buffer = buffers.get(p)!;
            for (const batch of (part.records ?? []) as readonly RecordsBatch[]) {
              visitRecords([batch], from, (offset, record) => {
                if (offset >= end) return;
                buffer.push({
                  topic,
                  partition: p,
                  offset,
                  key: record.key ?? undefined,
                  value: record.value ?? undefined,
                  timestamp: batch.firstTimestamp + record.timestampDelta,
                  headers: new Map(),
                } as unknown as FetchedRecord);
              });
            }
            const after = visitRecords((part.records ?? []) as readonly RecordsBatch[], from, () => {});
            if (after >= end) position.delete(p);
            else if (after > from) position.set(p, after);
            else if (part.highWatermark !== undefined && BigInt(part.highWatermark) <= from)
              throw new Error(`${topic}/${p}: the range ends at offset ${end} but the partition ends at ${from}`);
          }
      }),
    );
  }
}
