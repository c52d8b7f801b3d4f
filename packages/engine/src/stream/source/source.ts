import { Admin, Consumer, FetchIsolationLevels, type ConsumerOptions, type MessagesStream } from '@platformatic/kafka';
import { dropAbortedOnFetch } from '../../kafka/aborted-transactions.ts';
import { brokerReason } from '../../kafka/broker-errors.ts';
import { closeWithin, withDeadline } from '../deadline.ts';
import { metricNames } from '../metric-names.ts';
import { defaultMaxBatch, type FetchedRecord, type GroupMetadata } from '../records.ts';
import type { StreamPlan } from '../topology-plan.ts';
import type { Wakeup } from '../wakeup.ts';
import type { WorkerStats } from '../worker-stats.ts';
import { readBatch } from './batch-read.ts';
import { BatchSizer, defaultBatchTargetMs } from './batch-sizer.ts';
import { ConsumerHealth } from './consumer-health.ts';
import { PartitionQueues } from './partition-queues.ts';
import { Positions, type Admitted, type AssignmentChange } from './positions.ts';
import { RetentionCheck } from './retention-check.ts';
import { RetentionWatch, type RetentionWarning } from './retention-watch.ts';
import { stableOffsets } from './stable-offsets.ts';
import type { BufferConsumer, KafkaConnection } from '../../kafka/client-options.ts';

export interface SourceOptions {
  readonly connection: KafkaConnection;
  readonly clientId: string;
  readonly groupId: string;
  readonly guarantee: 'at_least_once' | 'exactly_once_v2';
  /** The most records of a batch (under a backlog; 2,000 by default). */
  readonly maxBatch?: number;
  /** weir.stream.batch-target-ms: how long a batch is meant to take through the process stage while the worker keeps up (batch-sizer.ts). */
  readonly batchTargetMs?: number;
  readonly stats: WorkerStats;
  /** How its log lines name the worker (`stream worker 2`). */
  readonly worker: string;
  readonly onLog: (level: 'info' | 'warn', message: string) => void;
  /** The worker's retention warnings, whenever one is added or removed (retention-watch.ts). */
  readonly onWarnings?: (warnings: RetentionWarning[]) => void;
  /**
   * The consumer joined its group (a new generation): wired to the sink, which commits at once the
   * offsets a rebalance refused (also of partitions that moved: their records are processed), before
   * the partitions' new owners read the committed offsets (see settle).
   */
  readonly onJoin?: () => void;
  /** The source's clients (fakes in unit tests). */
  readonly openAdmin?: () => Admin;
  readonly openConsumer?: (options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) => BufferConsumer;
}

/** The client's message plus the broker's reason when there is one (`… (CONCURRENT_TRANSACTIONS)`). */
export function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = brokerReason(err);
  return reason === message ? message : `${message}: ${reason}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a worker waits before it restores and reads partitions it gained in a rebalance (see settle). */
const gainedSettleMs = 1500;
/** Reading the committed offsets of partitions gained in a rebalance (deadline.ts). */
const offsetsDeadlineMs = 60_000;
const keepFetching = (): void => {};

/**
 * The source stage: the worker's consumer in the node group's consumer group and the source's own
 * admin client. Joins the group for the plan's input and repartition topics, fetches fair batches
 * (partition queues), follows rebalances and the assignment, admits each record once (positions),
 * watches the consumer's health and the input topics' retention, and measures lag.
 */
export class Source {
  readonly #options: SourceOptions;
  readonly #wakeup: Wakeup;
  #plan: StreamPlan | undefined;
  #admin: Admin | undefined;
  #consumer: BufferConsumer | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  /** Records read but not yet processed, per partition (batches take from each in turn). */
  readonly #queues = new PartitionQueues<FetchedRecord>();
  /** How many records the next batch takes: batches follow the load (batch-sizer.ts). */
  readonly #sizer: BatchSizer;
  readonly positions = new Positions();
  /** Set between the group's rebalance notice and the new assignment: no batch starts meanwhile. */
  #rebalancing = false;
  #rebalancingSince = 0;
  #subscribed = '';
  #knownTopics = new Set<string>();
  /** The input topics last found missing, comma-separated. */
  #missingInputs = '';
  /** A lost broker connection or a dead fetch loop: the consumer's stream may stall silently, so it is rebuilt. */
  readonly #health: ConsumerHealth;
  /** Input topics whose retention deletes records before they are read (docs/engine.md → Retention of input topics). */
  readonly #retention: RetentionWatch;
  readonly #retentionCheck: RetentionCheck;

  constructor(options: SourceOptions, wakeup: Wakeup) {
    this.#options = options;
    this.#wakeup = wakeup;
    this.#sizer = new BatchSizer(this.#maxBatch, options.batchTargetMs ?? defaultBatchTargetMs);
    this.#health = new ConsumerHealth(() => wakeup.wake());
    this.#retention = new RetentionWatch(
      (topic) => (this.#plan?.byInput.get(topic) ?? []).map((t) => t.id),
      (warnings) => options.onWarnings?.(warnings),
    );
    this.#retentionCheck = new RetentionCheck(this.#retention, {
      admin: () => this.#admin,
      consumer: () => this.#consumer,
      inputs: () => this.#inputsKnown(),
      position: (topic, partition) => this.positions.of(topic, partition),
      lost: (topic, count) => options.stats.add(metricNames.deletedUnread, [topic], count),
    });
  }

  /** The plan the source reads for (its input topics, the topologies of each, for retention warnings). */
  set plan(plan: StreamPlan) {
    this.#plan = plan;
  }

  /** The consumer, while subscribed (an exactly_once_v2 transaction commits its offsets). */
  get consumer(): BufferConsumer | undefined {
    return this.#consumer;
  }

  /** The fetch stream, while subscribed to some topic. */
  get subscribed(): boolean {
    return this.#stream !== undefined;
  }

  get rebalancing(): boolean {
    return this.#rebalancing;
  }

  #inputsKnown(): string[] {
    return (this.#plan?.inputTopics ?? []).filter((t) => this.#knownTopics.has(t));
  }

  /** Input topics that exist; missing ones are looked for again every 5 s. */
  async existingInputs(): Promise<string[]> {
    const o = this.#options;
    this.#admin ??= o.openAdmin?.() ?? new Admin({ ...o.connection, clientId: `${o.clientId}-source-admin` });
    const wanted = this.#plan?.inputTopics ?? [];
    if (wanted.every((t) => this.#knownTopics.has(t))) return [...wanted];
    const topics = new Set(await this.#admin.listTopics({ includeInternals: false }));
    this.#knownTopics = topics;
    const missing = wanted.filter((t) => !topics.has(t)).join(', ');
    // Said once per change of the missing set, not at every 5-s look.
    if (missing !== this.#missingInputs && missing)
      this.#options.onLog('warn', `input topic(s) ${missing} do not exist yet; waiting for them`);
    this.#missingInputs = missing;
    return wanted.filter((t) => topics.has(t));
  }

  /** True when an input topic of the plan was missing at the last look (the topics are then listed again). */
  inputsMissing(): boolean {
    if (!(this.#plan?.inputTopics ?? []).some((t) => !this.#knownTopics.has(t))) return false;
    this.#knownTopics.clear();
    return true;
  }

  /** The input topics' retention settings (at each set-up, then every 10 s with `checkRetention`). */
  readRetention(): Promise<void> {
    return this.#retentionCheck.readSettings(true);
  }

  /** Whether the consumer is subscribed to exactly `topics` already. */
  subscribedTo(topics: readonly string[]): boolean {
    return this.#stream !== undefined && topics.join('\u0000') === this.#subscribed;
  }

  /** Joins the group for `topics`; `current` throws once the set-up was given up (after each wait). */
  async subscribe(topics: readonly string[], current: () => void): Promise<void> {
    await this.closeConsumer();
    current();
    this.#subscribed = topics.join('\u0000');
    if (topics.length === 0) return;
    const o = this.#options;
    const consumer = (o.openConsumer ?? ((options) => new Consumer(options)))({
      ...o.connection,
      clientId: `${o.clientId}-consumer`,
      groupId: o.groupId,
      maxWaitTime: 200,
      maxBytes: 16 * 1024 * 1024,
      // Small per-partition fetches: every partition gets records in every fetch (fairness), and few
      // records wait in memory when a rebalance moves their partition away.
      maxBytesPerPartition: 512 * 1024,
      // A member lost with its broker (or its process) holds its partitions until this times out.
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      rebalanceTimeout: 60_000,
      isolationLevel:
        o.guarantee === 'exactly_once_v2' ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED,
    });
    this.#consumer = consumer;
    // read_committed must also leave out aborted transactions' records (repartition records of a batch that was rolled back or of a killed worker)
    if (o.guarantee === 'exactly_once_v2') dropAbortedOnFetch(consumer);
    this.#health.watchConsumer(consumer);
    // The group is rebalancing: no new batch starts until the new assignment is known, so records of
    // partitions that move away are not processed here after their next owner started on them.
    consumer.on('consumer:group:rebalance', () => {
      if (!this.#rebalancing) this.#rebalancingSince = Date.now();
      this.#rebalancing = true;
    });
    consumer.on('consumer:group:join', () => {
      this.#rebalancing = false;
      this.#options.onJoin?.();
      this.#wakeup.wake();
    });
    const stream = await consumer.consume({
      topics: [...topics],
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      highWaterMark: 4096,
    });
    try {
      current();
    } catch (err) {
      // joined after the set-up was given up (and this consumer closed): not this worker's stream
      await stream.close().catch(() => {});
      throw err;
    }
    this.#stream = stream;
    this.#health.watchStream(stream);
    stream.on('error', (err: Error) => this.#options.onLog('warn', `consumer stream: ${err.message}`));
    // A 'readable' listener for the stream's whole life. nextBatch removes its own listener while a
    // batch is processed; with none left, Node sets readableFlowing to null, and the client's fetch
    // loop (which fetches only while someone listens) stops for good: the stream stalls silently.
    stream.on('readable', keepFetching);
  }

  /** Throws when a rebalance cannot complete: the connection is lost, or 60 s passed. */
  checkRebalance(): void {
    if (this.#health.connectionLost !== undefined) throw new Error(this.#health.connectionLost);
    if (Date.now() - this.#rebalancingSince > 60_000)
      throw new Error('the consumer group rebalance did not complete within 60 s');
  }

  get #maxBatch(): number {
    return this.#options.maxBatch ?? defaultMaxBatch;
  }

  /**
   * The next batch, at once when records wait: as many as the batch sizer allows (up to maxBatch),
   * taken fairly from the partitions' queues; empty after a second without records or at a wake.
   * Throws when the stream failed, stalled or closed.
   */
  async nextBatch(): Promise<FetchedRecord[]> {
    const stream = this.#stream!;
    const batch = await readBatch(stream, this.#queues, this.#maxBatch, this.#wakeup, (queued) =>
      this.#sizer.next(queued),
    );
    const stalled =
      this.#health.consumerError ??
      (batch.length === 0 && !this.#rebalancing ? this.#health.failure(this.#consumer) : undefined);
    if (stalled !== undefined) throw new Error(stalled);
    if (!this.#rebalancing && (stream.destroyed || (stream.readableEnded && batch.length === 0)))
      throw new Error('the consumer stream closed');
    return batch;
  }

  /** A batch of `records` took `ms` through the process stage (it sizes the next batches). */
  processed(records: number, ms: number): void {
    this.#sizer.processed(records, ms);
  }

  /** Records to process again first (the assignment may have changed under them, or their transaction was aborted). */
  putBack(batch: readonly FetchedRecord[]): void {
    this.#queues.putBack(batch);
  }

  /** The consumer's assignment against the one taken in: undefined when unchanged. */
  assignmentChange(): AssignmentChange | undefined {
    const assignments = this.#consumer?.assignments;
    return assignments ? this.positions.change(assignments) : undefined;
  }

  /** Takes in a new assignment: records and positions of partitions lost are forgotten (their next owner reads them). */
  adopt(change: AssignmentChange): void {
    const assigned = change.assigned;
    this.positions.adopt(assigned);
    const w = this.#options.worker;
    const names = [...assigned].map((k) => k.replace('\u0000', '/')).sort();
    this.#options.onLog('info', `${w}: assigned ${names.join(', ') || 'nothing'}`);
    const dropped = this.#queues.retainOnly(assigned);
    if (dropped > 0)
      this.#options.onLog(
        'info',
        `${w}: ${dropped} fetched record(s) of partitions moved to another worker are left to it`,
      );
  }

  /**
   * Partitions that just came to this worker may still be written by their previous owner: the
   * batch it had in flight when the group rebalanced (its outputs, its changelog records, then its
   * offsets, committed right after its own re-join). Waiting briefly before restoring and reading
   * lets that batch land; under at_least_once, records below the offsets committed by then are
   * skipped, so the batch is neither repeated nor counted twice in the state.
   */
  async settle(gained: readonly string[], stopped: AbortSignal): Promise<void> {
    await sleep(gainedSettleMs);
    const consumer = this.#consumer;
    if (!consumer) return;
    const byTopic = new Map<string, number[]>();
    for (const key of gained) {
      const at = key.lastIndexOf('\u0000');
      const list = byTopic.get(key.slice(0, at)) ?? [];
      list.push(Number(key.slice(at + 1)));
      byTopic.set(key.slice(0, at), list);
    }
    try {
      const committed = await withDeadline(
        this.#options.guarantee === 'exactly_once_v2'
          ? stableOffsets(this.#admin!, this.#options.groupId, byTopic, () => !stopped.aborted)
          : consumer.listCommittedOffsets({
              topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
            }),
        offsetsDeadlineMs,
        'reading the committed offsets',
      );
      for (const [topic, offsets] of committed)
        offsets.forEach((offset, partition) => this.positions.committed(topic, partition, offset));
    } catch (err) {
      this.#options.onLog(
        'info',
        `${this.#options.worker}: committed offsets not read after a rebalance (${describeFailure(err)})`,
      );
    }
  }

  /** Admits a fetched batch (positions.ts) and looks at its input records' age against retention. */
  admit(batch: readonly FetchedRecord[]): Admitted {
    const admitted = this.positions.admit(batch);
    const byInput = this.#plan?.byInput;
    const now = Date.now();
    for (const { record, next } of admitted.gaps)
      if (byInput?.has(record.topic)) this.#retentionCheck.gap(record.topic, record.partition, next, record.offset);
    for (const r of admitted.records) {
      if (!byInput?.has(r.topic)) continue;
      if (this.#retention.record(r.topic, r.partition, r.offset, r.timestamp, now))
        this.#options.stats.add(metricNames.nearRetention, [r.topic]);
    }
    return admitted;
  }

  /**
   * The group moved to a new generation while a batch's transaction was open (`reason`), so the
   * coordinator refused its offsets and the transaction was aborted (as Kafka Streams aborts on
   * revocation): nothing of the batch is visible. Back to where it started, without leaving the
   * group (leaving would start yet another rebalance, failing the other members' open transactions
   * in turn): its records wait again in front, each partition's position is the one before it, and
   * the assignment is taken in again at the next batch. Records of partitions that moved are left
   * to their new owner, which reads them from the committed offsets.
   */
  rollBack(batch: readonly FetchedRecord[], before: ReadonlyMap<string, bigint | undefined>, reason: string): void {
    this.#queues.putBack(batch);
    this.positions.rollBack(before);
    this.#options.onLog(
      'info',
      `${this.#options.worker}: transaction aborted, the group rebalanced under it (${reason}); the batch is processed again under the new assignment`,
    );
  }

  /** The consumer's group membership now (generation, member id), for the offsets of a transaction. */
  groupMetadata(): GroupMetadata | undefined {
    const c = this.#consumer;
    return c
      ? {
          groupId: c.groupId,
          memberId: c.memberId ?? '',
          generationId: c.generationId,
          coordinatorId: c.coordinatorId ?? -1,
        }
      : undefined;
  }

  /** The retention look-ups (every 5 s, retention-check.ts): settings when due, records deleted unread. */
  checkRetention(): Promise<void> {
    return this.#retentionCheck.tick();
  }

  /** Consumer lag per partition (high watermark − committed position), for the metrics. */
  async measureLag(): Promise<void> {
    const consumer = this.#consumer;
    const topics = this.#inputsKnown();
    if (!consumer || (this.#plan?.inputTopics.length ?? 0) === 0) return;
    try {
      const lag = await consumer.getLag({ topics });
      const entries: [string, number, number][] = [];
      for (const [topic, partitions] of lag)
        partitions.forEach((l, p) => {
          if (l >= 0n) entries.push([topic, p, Number(l)]);
        });
      this.#options.stats.lag(entries);
    } catch {
      // lag is best effort; the next tick tries again
    }
  }

  /** Leaves the group: what was read and not committed is read again by whoever gets the partitions. */
  async closeConsumer(): Promise<void> {
    const stream = this.#stream;
    const consumer = this.#consumer;
    this.#stream = undefined;
    this.#consumer = undefined;
    this.#subscribed = '';
    this.#queues.clear();
    this.#retentionCheck.reset();
    this.positions.clear();
    this.#rebalancing = false;
    if (stream) await closeWithin(stream.close(), 'the consumer stream', this.#leftBehind);
    if (consumer) await closeWithin(consumer.close(true), 'the consumer', this.#leftBehind);
  }

  /** Closes the consumer and the source's admin client; topics are listed again at the next set-up. */
  async close(): Promise<void> {
    await this.closeConsumer();
    const admin = this.#admin;
    this.#admin = undefined;
    this.#knownTopics.clear();
    if (admin) await closeWithin(admin.close(), 'the admin client', this.#leftBehind);
  }

  readonly #leftBehind = (message: string) =>
    this.#options.onLog('warn', `${this.#options.worker}: ${message}; left behind`);
}
