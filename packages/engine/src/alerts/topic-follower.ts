import { Consumer, FetchIsolationLevels, type ConsumerOptions, type RecordsBatch } from '@platformatic/kafka';
import { dropAbortedRecords } from '../kafka/aborted-transactions.ts';
import { visitRecords } from '../kafka/record-batches.ts';
import { describeError } from '../kafka/weir-topic-setup.ts';
import type { Positions, TopicRecord } from './alert-index.ts';

const offsetOutOfRange = 1;
const fetchWaitMs = 250;
/**
 * A fetch brings up to 16 MiB per partition, 32 MiB in all (about 70,000 alerts of 470 bytes): the
 * caller applies a fetch in one transaction, and a SQLite commit's cost is mostly the pages it
 * rewrites (the alert id index's are spread over the whole index), so larger transactions rewrite
 * each page for more alerts (1M alerts in process, bench/alert-index.ts: 8 % less CPU and 9 % less
 * time per alert with 8 MiB per partition than with 2; 12 % less CPU again with 16 than with 8).
 */
const partitionMaxBytes = 16 * 1024 * 1024;
const fetchMaxBytes = 32 * 1024 * 1024;
/**
 * Fetches handed to `apply` whose promise has not settled yet, at most: one being written by the
 * alert writer thread and one waiting behind it, so the thread never waits for the main thread's
 * next fetch, while the memory held stays bounded (a third fetch waits for the first to be written: about three
 * fetches' bytes, ≤ 96 MiB).
 */
const maxApplying = 2;

/** One fetch's records, the positions after them (partitions that moved), and the positions it read from. */
interface Fetched {
  readonly records: TopicRecord[];
  readonly next: Map<number, number>;
  readonly position: ReadonlyMap<number, bigint>;
}

export interface FollowerOptions {
  readonly connection: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>;
  readonly topic: string;
  /**
   * Where to resume, per partition (absent: the partition's first offset): called as the follower
   * starts and again after a failure, once every `apply` it started has settled.
   */
  readonly positions: () => Map<number, number>;
  /**
   * The records of one fetch, in offset order per partition, and the positions after them: the
   * caller stores both in one transaction (a failure here, thrown or a rejected promise, refetches
   * the same records). Up to `maxApplying` may be under way at once, in the order of the fetches:
   * the caller must then not store a later fetch's records once an earlier one failed.
   */
  readonly apply: (records: readonly TopicRecord[], next: Positions) => void | Promise<void>;
  readonly onError: (err: Error) => void;
}

/**
 * Reads every partition of one topic, committed records only, from the positions its caller
 * keeps (the alert index's SQLite file), and goes on tailing it; partitions added later are read
 * from their start. The consumer never joins its group: the positions live with the data they
 * describe, not in Kafka, so a node killed mid-way resumes exactly after its last transaction.
 */
export class TopicFollower {
  readonly #o: FollowerOptions;
  readonly #consumer: Consumer<Buffer, Buffer, Buffer, Buffer>;
  #closed = false;
  #loop: Promise<void> | undefined;

  constructor(options: FollowerOptions) {
    this.#o = options;
    this.#consumer = new Consumer(options.connection);
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#loop?.catch(() => {});
    await this.#consumer.close(true).catch(() => {});
  }

  /**
   * Fetch, apply, fetch…, with the next fetch sent as the records of this one are handed to
   * `apply` (the broker's answer travels while SQLite writes), and up to `maxApplying` fetches
   * being applied at once. The positions of that fetch are the ones `apply` stores; after a failure
   * the loop waits for every apply under way, then starts again from the caller's stored positions.
   */
  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      let ahead: Promise<Fetched> | undefined;
      const applying: Promise<void>[] = [];
      // an apply's failure, seen by the loop after the fetch under way (≤ fetchWaitMs) even when no later fetch waits on it
      let failure: { err: unknown } | undefined;
      try {
        let fetched = await this.#fetchOnce(this.#o.positions(), failures > 0);
        failures = 0;
        while (!this.#closed) {
          const after = new Map(fetched.position);
          for (const [p, at] of fetched.next) after.set(p, BigInt(at));
          ahead = this.#fetchOnce(after, false);
          ahead.catch(() => {}); // awaited below; a failure while applying must not go unhandled meanwhile
          if (fetched.next.size > 0) {
            const applied = this.#apply(fetched);
            applied.catch((err: unknown) => (failure ??= { err })); // awaited below, in order
            applying.push(applied);
          }
          while (applying.length >= maxApplying) await applying.shift();
          fetched = await ahead;
          ahead = undefined;
          if (failure) throw failure.err;
        }
        for (const applied of applying.splice(0)) await applied;
      } catch (err) {
        await ahead?.catch(() => {});
        await Promise.allSettled(applying);
        if (this.#closed) return;
        failures++;
        if (failures === 1 || failures % 50 === 0)
          this.#o.onError(new Error(`reading ${this.#o.topic} failed: ${describeError(err)}`));
        await new Promise((r) => setTimeout(r, Math.min(200 * failures, 5000)));
      }
    }
  }

  #apply(fetched: Fetched): Promise<void> {
    try {
      return Promise.resolve(this.#o.apply(fetched.records, fetched.next));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async #firstOffsets(): Promise<bigint[]> {
    const starts = await this.#consumer.listOffsets({
      topics: [this.#o.topic],
      timestamp: -2n,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    });
    return starts.get(this.#o.topic) ?? [];
  }

  /** One fetch from `from` (absent partitions: from their first offset); nothing is applied here. */
  async #fetchOnce(from: ReadonlyMap<number, number | bigint>, refresh: boolean): Promise<Fetched> {
    const { topic } = this.#o;
    const metadata = await this.#consumer.metadata({ topics: [topic], forceUpdate: refresh });
    const info = metadata.topics.get(topic);
    if (!info) throw new Error(`topic ${topic} does not exist (yet)`);
    const position = new Map<number, bigint>();
    let starts: bigint[] | undefined;
    for (let p = 0; p < info.partitionsCount; p++) {
      const at = from.get(p);
      if (at !== undefined) position.set(p, BigInt(at));
      else position.set(p, (starts ??= await this.#firstOffsets())[p] ?? 0n);
    }
    const byLeader = new Map<number, number[]>();
    for (const [p, partition] of info.partitions.entries()) {
      if (!partition) continue;
      byLeader.set(partition.leader, [...(byLeader.get(partition.leader) ?? []), p]);
    }
    const records: TopicRecord[] = [];
    const next = new Map<number, number>();
    await Promise.all(
      [...byLeader].map(async ([node, partitions]) => {
        const response = await this.#consumer.fetch({
          node,
          maxWaitTime: fetchWaitMs,
          minBytes: 1,
          maxBytes: fetchMaxBytes,
          isolationLevel: FetchIsolationLevels.READ_COMMITTED,
          topics: [
            {
              topicId: info.id,
              partitions: partitions.map((partition) => ({
                partition,
                fetchOffset: position.get(partition)!,
                partitionMaxBytes,
                currentLeaderEpoch: -1,
                lastFetchedEpoch: -1,
              })),
            },
          ],
        });
        dropAbortedRecords(response);
        for (const t of response.responses) {
          for (const p of t.partitions) {
            const from = position.get(p.partitionIndex);
            if (from === undefined) continue;
            if (p.errorCode === offsetOutOfRange) {
              // the records there were deleted by the topic's retention: go on from its first offset
              next.set(p.partitionIndex, Number((await this.#firstOffsets())[p.partitionIndex] ?? 0n));
              continue;
            }
            if (p.errorCode !== 0) throw new Error(`fetch of ${topic}-${p.partitionIndex}: Kafka error ${p.errorCode}`);
            const after = visitRecords((p.records ?? []) as readonly RecordsBatch[], from, (offset, record) =>
              records.push({
                partition: p.partitionIndex,
                offset: Number(offset),
                key: record.key ?? null,
                value: record.value ?? null,
              }),
            );
            if (after !== from) next.set(p.partitionIndex, Number(after));
          }
        }
      }),
    );
    // a partition read for the first time: its start is stored too, so an empty one is not listed again
    for (const [p, at] of position) if (!from.has(p) && !next.has(p)) next.set(p, Number(at));
    return { records, next, position };
  }
}
