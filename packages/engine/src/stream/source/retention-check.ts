import { ConfigResourceTypes, ListOffsetTimestamps, type Admin, type Consumer } from '@platformatic/kafka';
import { retentionOf, type RetentionWatch } from './retention-watch.ts';

/** How often a stream worker reads its input topics' retention settings again. */
export const settingsEveryMs = 10_000;

/** What the check needs of its stream worker (read when it runs: clients come and go). */
export interface RetentionSources {
  admin(): Admin | undefined;
  consumer(): Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  /** The plan's input topics that exist (not the stage topics). */
  inputs(): readonly string[];
  /** The next offset the worker is to process on a partition, when it knows it. */
  position(topic: string, partition: number): bigint | undefined;
  /** Records deleted unread were found (for the metric). */
  lost(topic: string, count: number): void;
}

interface Gap {
  readonly topic: string;
  readonly partition: number;
  readonly next: bigint;
  readonly offset: bigint;
}

/** A partition a worker reads, and the next offset it is to read there. */
export interface Reading {
  readonly topic: string;
  readonly partition: number;
  readonly next: bigint;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * The look-ups behind a RetentionWatch (docs/engine.md → Retention of input topics): the input
 * topics' `retention.ms`, `retention.bytes` and `cleanup.policy` (at each plan, then every 10 s),
 * the log start offset of a partition whose records skipped offsets, and every 5 s the log start
 * offsets of the assigned input partitions against the committed offsets and the worker's positions,
 * and the unread backlog of those of topics with a retention.bytes against it.
 * Every look-up is best effort: a failure waits for the next one.
 */
export class RetentionCheck {
  readonly #watch: RetentionWatch;
  readonly #sources: RetentionSources;
  #settingsRead = 0;
  #settingsOf = '';
  /** Per partition: the next offset to read that the last look found behind the log start (a loss when the next look still finds it there). */
  readonly #suspects = new Map<string, bigint>();
  /** Per partition: the next offset whose loss was reported already (each record lost counts once). */
  readonly #reported = new Map<string, bigint>();
  /** Per partition: the first skip of offsets not looked into yet. */
  readonly #gaps = new Map<string, Gap>();
  /** Per partition: when its log start was last looked up for a gap. */
  readonly #gapLooked = new Map<string, number>();

  constructor(watch: RetentionWatch, sources: RetentionSources) {
    this.#watch = watch;
    this.#sources = sources;
  }

  /** Reads the input topics' settings when they changed or every settingsEveryMs. */
  async readSettings(force = false): Promise<void> {
    const admin = this.#sources.admin();
    const topics = [...this.#sources.inputs()].sort();
    const of = topics.join('\u0000');
    if (!admin || topics.length === 0) return;
    if (!force && of === this.#settingsOf && Date.now() - this.#settingsRead < settingsEveryMs) return;
    try {
      const described = await admin.describeConfigs({
        resources: topics.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name })),
      });
      for (const d of described) {
        const configs: Record<string, string> = {};
        for (const c of d.configs) if (typeof c.value === 'string') configs[c.name] = c.value;
        this.#watch.settings(d.resourceName, retentionOf(configs));
      }
      this.#settingsRead = Date.now();
      this.#settingsOf = of;
    } catch {
      // the next look tries again
    }
  }

  /**
   * A record of `topic`/`partition` came at `offset` while the worker expected `next`: offsets in
   * between are control records (transactions), compacted away, or deleted by retention. Only the
   * log start offset tells; it is looked up at once, or with the next tick when the partition was
   * looked up less than a second ago (a transactional producer leaves a gap at every commit).
   */
  gap(topic: string, partition: number, next: bigint, offset: bigint): void {
    const k = key(topic, partition);
    if (this.#gaps.has(k)) return;
    this.#gaps.set(k, { topic, partition, next, offset });
    if (Date.now() - (this.#gapLooked.get(k) ?? 0) >= 1000) void this.#confirmGaps([k]);
  }

  async #confirmGaps(keys: string[]): Promise<void> {
    const consumer = this.#sources.consumer();
    const gaps = keys.map((k) => this.#gaps.get(k)).filter((g) => g !== undefined);
    if (!consumer || gaps.length === 0) return;
    const now = Date.now();
    for (const k of keys) this.#gapLooked.set(k, now);
    try {
      const offsets = await consumer.listOffsets({
        topics: [...new Set(gaps.map((g) => g.topic))],
        partitions: Object.fromEntries(
          [...new Set(gaps.map((g) => g.topic))].map((t) => [
            t,
            gaps.filter((g) => g.topic === t).map((g) => g.partition),
          ]),
        ),
        timestamp: ListOffsetTimestamps.EARLIEST,
      });
      for (const g of gaps) {
        this.#gaps.delete(key(g.topic, g.partition));
        const logStart = offsets.get(g.topic)?.[g.partition];
        // the record at `offset` was read: only what is below both it and the log start is gone
        if (logStart !== undefined)
          this.#report(g.topic, g.partition, g.next, logStart < g.offset ? logStart : g.offset);
      }
    } catch {
      // kept: the next tick looks again
    }
  }

  /**
   * Every 5 s: the settings when due, and each assigned input partition whose log start offset is
   * past both its committed offset and the worker's position at two looks in a row (the records were
   * deleted and no fetched record is on its way: the tail of a partition deleted, nothing after it),
   * then the backlog of those partitions against their topic's retention.bytes.
   */
  async tick(): Promise<void> {
    await this.readSettings();
    if (this.#gaps.size > 0) await this.#confirmGaps([...this.#gaps.keys()]);
    const consumer = this.#sources.consumer();
    const inputs = new Set(this.#sources.inputs());
    const assigned = (consumer?.assignments ?? []).filter((a) => inputs.has(a.topic) && a.partitions.length > 0);
    if (!consumer || assigned.length === 0) return;
    const reading: Reading[] = [];
    try {
      const [starts, committed] = await Promise.all([
        consumer.listOffsets({
          topics: assigned.map((a) => a.topic),
          partitions: Object.fromEntries(assigned.map((a) => [a.topic, a.partitions])),
          timestamp: ListOffsetTimestamps.EARLIEST,
        }),
        consumer.listCommittedOffsets({ topics: assigned.map((a) => ({ topic: a.topic, partitions: a.partitions })) }),
      ]);
      const seen = new Set<string>();
      for (const { topic, partitions } of assigned) {
        for (const partition of partitions) {
          const logStart = starts.get(topic)?.[partition];
          const c = committed.get(topic)?.[partition] ?? -1n;
          const p = this.#sources.position(topic, partition) ?? -1n;
          const next = c > p ? c : p;
          if (next >= 0n) reading.push({ topic, partition, next });
          if (logStart === undefined || next < 0n || logStart <= next) continue;
          const k = key(topic, partition);
          seen.add(k);
          if (this.#suspects.get(k) === next) this.#report(topic, partition, next, logStart);
          else this.#suspects.set(k, next);
        }
      }
      for (const k of [...this.#suspects.keys()]) if (!seen.has(k)) this.#suspects.delete(k);
    } catch {
      // the next tick tries again
    }
    await this.backlog(reading);
  }

  /**
   * The unread backlog of partitions of topics with a size limit (retention.bytes ≥ 0, cleanup
   * deletes) against that limit: about the partition's size on disk × (log end − next) / (log end −
   * log start). Looks nothing up when no topic has one (or each such topic is warned about already).
   */
  async backlog(partitions: readonly Reading[]): Promise<void> {
    const limited = partitions.filter(
      (p) =>
        this.#watch.bytesLimit(p.topic) !== undefined && !this.#watch.warned('RECORDS_NEAR_RETENTION_BYTES', p.topic),
    );
    const admin = this.#sources.admin();
    const consumer = this.#sources.consumer();
    if (!admin || !consumer || limited.length === 0) return;
    const byTopic = new Map<string, number[]>();
    for (const p of limited) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p.partition]);
    const request = {
      topics: [...byTopic.keys()],
      partitions: Object.fromEntries(byTopic),
    };
    try {
      const [starts, ends, sizes] = await Promise.all([
        consumer.listOffsets({ ...request, timestamp: ListOffsetTimestamps.EARLIEST }),
        consumer.listOffsets({ ...request, timestamp: ListOffsetTimestamps.LATEST }),
        this.#sizes(admin, byTopic),
      ]);
      const now = Date.now();
      for (const { topic, partition, next } of limited) {
        const logStart = starts.get(topic)?.[partition];
        const logEnd = ends.get(topic)?.[partition];
        const bytes = sizes.get(key(topic, partition));
        if (logStart === undefined || logEnd === undefined || bytes === undefined || logEnd <= logStart) continue;
        const from = next < logStart ? logStart : next;
        if (from >= logEnd) continue;
        const unread = (bytes * Number(logEnd - from)) / Number(logEnd - logStart);
        this.#watch.backlog(topic, partition, unread, from, logEnd, now);
      }
    } catch {
      // the next tick tries again
    }
  }

  /** Per partition: its size on disk, the largest of its replicas (a replica's log directories summed). */
  async #sizes(admin: Admin, byTopic: Map<string, number[]>): Promise<Map<string, number>> {
    const brokers = await admin.describeLogDirs({
      topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
    });
    const sizes = new Map<string, number>();
    for (const broker of brokers) {
      const replicas = new Map<string, number>();
      for (const dir of broker.results)
        for (const topic of dir.topics)
          for (const p of topic.partitions) {
            const k = key(topic.name, p.partitionIndex);
            replicas.set(k, (replicas.get(k) ?? 0) + Number(p.partitionSize));
          }
      for (const [k, bytes] of replicas) sizes.set(k, Math.max(sizes.get(k) ?? 0, bytes));
    }
    return sizes;
  }

  /** Forgets the partitions' suspicions (the consumer was closed: positions start over from the committed offsets). */
  reset(): void {
    this.#suspects.clear();
    this.#gaps.clear();
  }

  #report(topic: string, partition: number, next: bigint, logStart: bigint): void {
    const k = key(topic, partition);
    const from = (this.#reported.get(k) ?? -1n) > next ? this.#reported.get(k)! : next;
    if (logStart <= from) return;
    this.#reported.set(k, logStart);
    const lost = this.#watch.deleted(topic, partition, from, logStart, Date.now());
    if (lost > 0) this.#sources.lost(topic, lost);
  }
}
