import { Admin, Consumer, FetchIsolationLevels, type BaseOptions, type MessagesStream } from '@platformatic/kafka';
import { dropAbortedOnFetch } from '../kafka/aborted-transactions.ts';
import { brokerReason } from '../kafka/broker-errors.ts';
import { readChangelog } from './changelog-restore.ts';
import type { ConfigSnapshot } from './config-snapshot.ts';
import { deadLetterTopic } from './process/dead-letter.ts';
import { ConsumerHealth } from './source/consumer-health.ts';
import { closeDeadlineMs, DeadlineExceeded, withDeadline } from './deadline.ts';
import { PartitionedStateStore } from './state/partitioned-state.ts';
import { PartitionQueues } from './source/partition-queues.ts';
import { IdleClock } from './state/idle-clock.ts';
import { metricNames } from './metric-names.ts';
import { processBatch, processTicks, type ProcessEnv } from './process/record-processor.ts';
import type { FetchedRecord as BufferMessage, GroupMetadata, OutgoingRecord } from './records.ts';
import { Sink } from './sink/sink.ts';
import { stableOffsets } from './stable-offsets.ts';
import { RetentionCheck } from './retention-check.ts';
import { RetentionWatch, type RetentionWarning } from './retention-watch.ts';
import { LookupBook, RuleBook } from './rule-book.ts';
import { buildPlan, TaskCache, type StreamPlan } from './topology-plan.ts';
import { WorkerStats } from './worker-stats.ts';
import type { WorkerState } from './worker-states.ts';

type Connection = Pick<BaseOptions, 'bootstrapBrokers' | 'tls' | 'sasl' | 'connectTimeout' | 'requestTimeout'>;

export interface StreamWorkerOptions {
  readonly index: number;
  readonly connection: Connection;
  readonly clientId: string;
  readonly groupId: string;
  readonly group: string;
  readonly guarantee: 'at_least_once' | 'exactly_once_v2';
  /** Unique per worker and stable across restarts of the node (fences zombie transactions). */
  readonly transactionalId: string;
  readonly alertsTopic: string;
  readonly maxBatch?: number;
  /**
   * commit.interval.ms (at_least_once): 0 commits a batch's offsets as soon as its output is
   * acknowledged, N at most every N ms. exactly_once_v2 commits with every batch's transaction.
   */
  readonly commitIntervalMs?: number;
  /**
   * weir.stream.idle-close-seconds in ms: after this much wall-clock time without records on a
   * partition of a correlation stage, its stream time moves on with the wall clock (closing
   * emit=close windows). 0: windows move only with the events' own times.
   */
  readonly idleCloseMs?: number;
  readonly onState: (state: WorkerState) => void;
  readonly onLog: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The worker's retention warnings, whenever one is added or removed (retention-watch.ts). */
  readonly onWarnings?: (warnings: RetentionWarning[]) => void;
}

/** The client's message plus the broker's reason when there is one (`… (CONCURRENT_TRANSACTIONS)`). */
function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = brokerReason(err);
  return reason === message ? message : `${message}: ${reason}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/** How long a worker waits before it restores and reads partitions it gained in a rebalance (see #settleGained). */
const gainedSettleMs = 1500;
/** Deadlines (see deadline.ts). Clients, topics and the group join (the join alone may take the 60-s rebalance timeout). */
const setUpDeadlineMs = 90_000;
/** Reading the committed offsets of partitions gained in a rebalance. */
const offsetsDeadlineMs = 60_000;
/** Restoring one changelog partition (changelog-restore.ts also fails after 30 s without progress). */
const restoreDeadlineMs = 300_000;

const keepFetching = (): void => {};

/**
 * One stream worker: a consumer in the node group's consumer group and a producer. Loop: fetch a
 * batch → run it through the compiled plan → produce outputs, alerts and dead letters → commit
 * offsets once the produce is acknowledged (at-least-once, pipelined: the next batch is processed
 * while this one is written, see WritePipeline) or inside a Kafka transaction (exactly_once_v2,
 * one batch at a time). Any failure restarts the consumer from the committed offsets, so nothing
 * is lost. A new configuration is compiled off the loop and swapped in between two batches.
 */
export class StreamWorker {
  readonly stats = new WorkerStats();
  readonly #options: StreamWorkerOptions;
  /** Correlation state per partition of each stage's repartition topic, backed by its changelog topic. */
  readonly #stateStore = new PartitionedStateStore();
  readonly #rules = new RuleBook(this.#stateStore);
  readonly #lookups = new LookupBook();
  readonly #tasks = new TaskCache();
  #plan: StreamPlan = { version: 0, byInput: new Map(), inputTopics: [], outputTopics: [], stages: new Map() };
  #state: WorkerState = 'CREATED';
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  /** Writes a batch's output and commits its offsets (pipelined, or in a transaction). */
  readonly #sink: Sink;
  /** Reads changelog partitions (plain fetches, never joins a group). */
  #restorer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #admin: Admin | undefined;
  /** Records read but not yet processed, per partition (batches take from each in turn). */
  readonly #queues = new PartitionQueues<BufferMessage>();
  /** Next offset to process per assigned partition: a record below it was processed already (re-fetched after a rebalance) and is skipped. */
  readonly #positions = new Map<string, bigint>();
  /** Partitions assigned at the last look (`topic\0partition`); null before the first assignment. */
  #assigned: Set<string> | null = null;
  /** Set between the group's rebalance notice and the new assignment: no batch starts meanwhile. */
  #rebalancing = false;
  #rebalancingSince = 0;
  /** Partition count of each stage's repartition topic. */
  readonly #stagePartitions = new Map<string, number>();
  /** When each state partition last got a record, for weir.stream.idle-close-seconds. */
  readonly #idle = new IdleClock();
  #subscribed = '';
  #knownTopics = new Set<string>();
  #planDirty = false;
  #clockTimer: NodeJS.Timeout | undefined;
  /** The input topics last found missing, comma-separated. */
  #missingInputs = '';
  /** Records emitted by the clock, written with the next batch. */
  #pendingClockOutput: OutgoingRecord[] = [];
  /** A lost broker connection or a dead fetch loop: the consumer's stream may stall silently, so it is rebuilt. */
  readonly #health = new ConsumerHealth(() => this.#wake?.());
  /** Counts teardowns after a failure: a step abandoned at its deadline that ends after one changes nothing. */
  #epoch = 0;
  /** The part of the set-up under way, named when it misses its deadline. */
  #step = '';
  /** Input topics whose retention deletes records before they are read (docs/engine.md → Retention of input topics). */
  readonly #retention = new RetentionWatch(
    (topic) => (this.#plan.byInput.get(topic) ?? []).map((t) => t.id),
    (warnings) => this.#options.onWarnings?.(warnings),
  );
  readonly #retentionCheck = new RetentionCheck(this.#retention, {
    admin: () => this.#admin,
    consumer: () => this.#consumer,
    inputs: () => this.#plan.inputTopics.filter((t) => this.#knownTopics.has(t)),
    position: (topic, partition) => this.#positions.get(tpKey(topic, partition)),
    lost: (topic, count) => this.stats.add(metricNames.deletedUnread, [topic], count),
  });

  constructor(options: StreamWorkerOptions) {
    // Short timeouts: a request lost to a restarting broker must fail fast so the worker can rebuild.
    this.#options = { ...options, connection: { ...options.connection, connectTimeout: 5000, requestTimeout: 10_000 } };
    this.#sink = new Sink({
      ...this.#options,
      commitIntervalMs: options.commitIntervalMs ?? 0,
      stats: this.stats,
      worker: `stream worker ${options.index}`,
    });
  }

  get state(): WorkerState {
    return this.#state;
  }

  /** Compiles a configuration snapshot; the loop picks it up before its next batch. */
  configure(snapshot: ConfigSnapshot): void {
    if (snapshot.lookups) this.#lookups.update(snapshot.lookups);
    this.#rules.update(snapshot.rules, this.#lookups);
    for (const [id, reason] of this.#rules.broken) this.#options.onLog('warn', `rule ${id} is skipped: ${reason}`);
    this.#plan = buildPlan(
      snapshot,
      {
        group: this.#options.group,
        groupId: this.#options.groupId,
        stateStore: this.#stateStore,
        rules: this.#rules,
        lookups: this.#lookups,
        counters: {
          taskError: (task) => this.stats.add(metricNames.taskErrors, [task.name]),
          ruleSkipped: (_task, ruleId, reason) => this.stats.add(metricNames.rulesSkipped, [ruleId, reason]),
        },
      },
      this.#tasks,
    );
    for (const [, topologies] of this.#plan.byInput) {
      for (const t of topologies)
        if (t.failure)
          this.#options.onLog(
            'warn',
            `topology ${t.name} cannot run: ${t.failure}; its records go to ${deadLetterTopic(t.input)}`,
          );
    }
    this.#planDirty = true;
    this.#wake?.();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#setState('REBALANCING');
    this.#clockTimer = setInterval(() => this.#advanceClock(), 1000);
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    if (!this.#running) {
      this.#setState('NOT_RUNNING');
      return;
    }
    this.#running = false;
    this.#setState('PENDING_SHUTDOWN');
    clearInterval(this.#clockTimer);
    this.#wake?.();
    await this.#loop;
    await this.#closeClients();
    this.#setState('NOT_RUNNING');
  }

  #setState(state: WorkerState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#options.onState(state);
  }

  async #run(): Promise<void> {
    let backoff = 500;
    while (this.#running) {
      try {
        await withDeadline(this.#setUp(), setUpDeadlineMs, () => this.#step);
        this.#planDirty = false;
        this.#setState('RUNNING');
        backoff = 500;
        await this.#consumeUntilReplan();
      } catch (err) {
        // nothing more is written or committed; what was not acknowledged is read again from the
        // committed offsets, the idle clock's output of those batches is kept for the next try
        this.#pendingClockOutput = (await this.#sink.reset()).concat(this.#pendingClockOutput);
        if (!this.#running) break;
        this.#options.onLog(
          'warn',
          `stream worker ${this.#options.index}: ${describeFailure(err)}; restarting from the committed offsets in ${backoff} ms`,
        );
        this.#setState('REBALANCING');
        await this.#closeClients();
        await this.#sleepOrWake(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /** Clients, input and stage topics, the group join; a step that ends after the set-up was given up goes no further. */
  async #setUp(): Promise<void> {
    const epoch = this.#epoch;
    const current = () => {
      if (epoch !== this.#epoch) throw new Error(`${this.#step}: given up`);
    };
    this.#step = 'opening the clients';
    await this.#ensureClients();
    current();
    this.#step = 'listing the input topics';
    const inputs = await this.#existingInputs();
    current();
    this.#step = "reading the input topics' retention";
    await this.#retentionCheck.readSettings(true);
    current();
    this.#step = 'creating the stage topics';
    if (inputs.length > 0) inputs.push(...(await this.#ensureStageTopics(new Set(inputs))));
    current();
    const key = inputs.join('\u0000');
    this.#step = 'joining the consumer group';
    if (key !== this.#subscribed || !this.#stream) await this.#subscribe(inputs, key, current);
  }

  /** Input topics that exist; missing ones are looked for again every 5 s. */
  async #existingInputs(): Promise<string[]> {
    const wanted = this.#plan.inputTopics;
    if (wanted.every((t) => this.#knownTopics.has(t))) return [...wanted];
    const topics = new Set(await this.#admin!.listTopics({ includeInternals: false }));
    this.#knownTopics = topics;
    const missing = wanted.filter((t) => !topics.has(t)).join(', ');
    // Said once per change of the missing set, not at every 5-s look.
    if (missing !== this.#missingInputs && missing)
      this.#options.onLog('warn', `input topic(s) ${missing} do not exist yet; waiting for them`);
    this.#missingInputs = missing;
    return wanted.filter((t) => topics.has(t));
  }

  /** Joins the group for `inputs`; `current` throws once the set-up was given up (after each wait). */
  async #subscribe(inputs: string[], key: string, current: () => void): Promise<void> {
    await this.#closeConsumer();
    current();
    this.#subscribed = key;
    if (inputs.length === 0) return;
    this.#setState('REBALANCING');
    const o = this.#options;
    this.#consumer = new Consumer({
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
    // read_committed must also leave out aborted transactions' records (repartition records of a batch that was rolled back or of a killed worker)
    if (o.guarantee === 'exactly_once_v2') dropAbortedOnFetch(this.#consumer);
    this.#health.watchConsumer(this.#consumer);
    // The group is rebalancing: no new batch starts until the new assignment is known, so records of
    // partitions that move away are not processed here after their next owner started on them.
    this.#consumer.on('consumer:group:rebalance', () => {
      if (!this.#rebalancing) this.#rebalancingSince = Date.now();
      this.#rebalancing = true;
    });
    this.#consumer.on('consumer:group:join', () => {
      this.#rebalancing = false;
      // offsets a rebalance refused (also of partitions that moved: their records are processed)
      this.#sink.commitSoon();
      this.#wake?.();
    });
    const stream = await this.#consumer.consume({
      topics: inputs,
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
    this.#stream.on('error', (err: Error) => this.#options.onLog('warn', `consumer stream: ${err.message}`));
    // A 'readable' listener for the stream's whole life. #nextBatch removes its own listener while a
    // batch is processed; with none left, Node sets readableFlowing to null, and the client's fetch
    // loop (which fetches only while someone listens) stops for good: the stream stalls silently.
    this.#stream.on('readable', keepFetching);
  }

  /** Creates the plan's stage topics for these inputs when missing; returns the repartition topics to consume. */
  async #ensureStageTopics(inputs: ReadonlySet<string>): Promise<string[]> {
    const stages = [...this.#plan.stages.values()].filter((s) => inputs.has(s.topology.input));
    if (stages.length === 0) return [];
    const topics = await this.#sink.ensureStageTopics(stages);
    for (const [topic, count] of topics.partitions) this.#stagePartitions.set(topic, count);
    return topics.repartition;
  }

  /**
   * Brings the worker in line with the consumer's assignment: records and positions of partitions
   * it lost are forgotten, the state of stage partitions it lost is dropped, and the state of stage
   * partitions it gained is restored from their changelogs before any of their records is processed.
   */
  async #syncAssignment(): Promise<void> {
    const assignments = this.#consumer?.assignments;
    if (!assignments) return;
    const assigned = new Set<string>();
    for (const { topic, partitions } of assignments) for (const p of partitions) assigned.add(tpKey(topic, p));
    const previous = this.#assigned;
    if (previous && previous.size === assigned.size && [...assigned].every((k) => previous.has(k))) return;
    const gained = [...assigned].filter((k) => !previous?.has(k));
    // what was processed under the previous assignment is written and committed first (commit on revoke)
    await this.#sink.flush();
    this.#sink.retainOnly(assigned);
    this.#assigned = assigned;
    this.#options.onLog(
      'info',
      `stream worker ${this.#options.index}: assigned ${
        [...assigned]
          .map((k) => k.replace('\u0000', '/'))
          .sort()
          .join(', ') || 'nothing'
      }`,
    );
    const dropped = this.#queues.retainOnly(assigned);
    if (dropped > 0)
      this.#options.onLog(
        'info',
        `stream worker ${this.#options.index}: ${dropped} fetched record(s) of partitions moved to another worker are left to it`,
      );
    for (const key of [...this.#positions.keys()]) if (!assigned.has(key)) this.#positions.delete(key);
    for (const [topic, partition] of [...this.#stateStore.partitions()]) {
      if (!assigned.has(tpKey(topic, partition))) {
        this.#stateStore.drop(topic, partition);
        this.#idle.forget(tpKey(topic, partition));
      }
    }
    const readCommitted = this.#options.guarantee === 'exactly_once_v2';
    if (gained.length > 0) await this.#settleGained(gained);
    for (const { topic, partitions } of assignments) {
      const stage = this.#plan.stages.get(topic);
      if (!stage) continue;
      for (const partition of partitions) {
        if (this.#stateStore.has(topic, partition)) continue;
        const started = performance.now();
        this.#stateStore.open(topic, partition, stage.topics.changelog);
        const restorer = this.#ensureRestorer();
        const epoch = this.#epoch;
        try {
          const n = await withDeadline(
            readChangelog(restorer, stage.topics.changelog, partition, readCommitted, (key, value) => {
              // a restore given up at its deadline writes nothing into the state restored after it
              if (epoch === this.#epoch) this.#stateStore.restore(topic, partition, key, value);
            }),
            restoreDeadlineMs,
            `restoring ${stage.topics.changelog}-${partition}`,
          );
          this.#options.onLog(
            'info',
            `restored ${n} changelog record(s) of ${stage.topics.changelog}-${partition} in ${Math.round(performance.now() - started)} ms`,
          );
        } catch (err) {
          this.#stateStore.drop(topic, partition);
          this.#assigned = null;
          throw err;
        }
        this.#idle.opened(tpKey(topic, partition), Date.now());
      }
    }
  }

  /**
   * Partitions that just came to this worker may still be written by their previous owner: the
   * batch it had in flight when the group rebalanced (its outputs, its changelog records, then its
   * offsets, committed right after its own re-join). Waiting briefly before restoring and reading
   * lets that batch land; under at_least_once, records below the offsets committed by then are
   * skipped, so the batch is neither repeated nor counted twice in the state.
   */
  async #settleGained(gained: readonly string[]): Promise<void> {
    await sleep(gainedSettleMs);
    if (!this.#consumer) return;
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
          ? stableOffsets(this.#admin!, this.#options.groupId, byTopic, () => this.#running)
          : this.#consumer.listCommittedOffsets({
              topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
            }),
        offsetsDeadlineMs,
        'reading the committed offsets',
      );
      for (const [topic, offsets] of committed) {
        offsets.forEach((offset, partition) => {
          const key = tpKey(topic, partition);
          if (offset !== undefined && offset > 0n && offset > (this.#positions.get(key) ?? -1n))
            this.#positions.set(key, offset);
        });
      }
    } catch (err) {
      this.#options.onLog(
        'info',
        `stream worker ${this.#options.index}: committed offsets not read after a rebalance (${describeFailure(err)})`,
      );
    }
  }

  #ensureRestorer(): Consumer<Buffer, Buffer, Buffer, Buffer> {
    const o = this.#options;
    this.#restorer ??= new Consumer({
      ...o.connection,
      clientId: `${o.clientId}-restore`,
      groupId: `${o.groupId}-restore-unused`,
    });
    return this.#restorer;
  }

  /**
   * Processes batches until the plan changes or the worker stops (resolves once every batch is
   * written and committed) or a failure (throws).
   */
  async #consumeUntilReplan(): Promise<void> {
    await this.#consumeBatches();
    await this.#sink.flush();
  }

  async #consumeBatches(): Promise<void> {
    const stream = this.#stream;
    const pipelined = this.#options.guarantee === 'at_least_once';
    let lastTopicCheck = Date.now();
    /** Set once the batches processed before a rebalance notice are written and committed. */
    let revoked = false;
    while (this.#running && !this.#planDirty) {
      if (!stream) {
        // Nothing to read (no topology for this group, or inputs missing): idle, re-checking topics.
        await this.#sleepOrWake(5000);
        if (this.#plan.inputTopics.some((t) => !this.#knownTopics.has(t))) this.#knownTopics.clear();
        return;
      }
      if (this.#rebalancing) {
        // commit on revoke: what is processed is written and its offsets committed (a commit the
        // rebalance refuses is made again at the join)
        if (!revoked) await this.#sink.flush();
        revoked = true;
        if (this.#health.connectionLost !== undefined) throw new Error(this.#health.connectionLost);
        if (Date.now() - this.#rebalancingSince > 60_000)
          throw new Error('the consumer group rebalance did not complete within 60 s');
        await this.#sleepOrWake(100);
        continue;
      }
      revoked = false;
      // one batch being written and one waiting for it at most: the next is processed meanwhile
      if (pipelined) await this.#sink.room(1);
      const batch = await this.#nextBatch(stream);
      if (this.#rebalancing) {
        // the assignment may change under this batch: put it back, processed after the new assignment
        this.#queues.putBack(batch);
        continue;
      }
      const stalled = batch.length === 0 ? this.#health.failure(this.#consumer) : undefined;
      if (stalled !== undefined) throw new Error(stalled);
      if (stream.destroyed || (stream.readableEnded && batch.length === 0))
        throw new Error('the consumer stream closed');
      if (batch.length > 0 || this.#pendingClockOutput.length > 0) await this.#processBatch(batch);
      if (Date.now() - lastTopicCheck > 5000) {
        lastTopicCheck = Date.now();
        if (this.#plan.inputTopics.some((t) => !this.#knownTopics.has(t))) {
          this.#knownTopics.clear();
          return;
        }
      }
    }
  }

  #nextBatch(stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>): Promise<BufferMessage[]> {
    const max = this.#options.maxBatch ?? 2000;
    const queues = this.#queues;
    const fill = () => {
      let m: BufferMessage | null;
      while (queues.size < 2 * max && (m = stream.read() as BufferMessage | null) !== null) queues.push(m);
    };
    fill();
    if (queues.size > 0) return Promise.resolve(queues.take(max));
    return new Promise((resolve, reject) => {
      const done = () => {
        stream.off('readable', onReadable);
        stream.off('error', onError);
        stream.off('close', onClose);
        this.#wake = undefined;
        clearTimeout(timer);
      };
      const onReadable = () => {
        fill();
        if (queues.size > 0) {
          done();
          resolve(queues.take(max));
        }
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      const onClose = () => {
        done();
        resolve([]);
      };
      // Wake up for a new plan or a stop even when no record arrives.
      this.#wake = () => {
        done();
        resolve([]);
      };
      const timer = setTimeout(() => {
        done();
        resolve([]);
      }, 1000);
      stream.on('readable', onReadable);
      stream.once('error', onError);
      stream.once('close', onClose);
    });
  }

  async #processBatch(batch: BufferMessage[]): Promise<void> {
    const started = performance.now();
    // the generation whose assignment this batch is checked against (read before the sync, which
    // awaits): its offsets are committed under it, so a rebalance completed meanwhile aborts them
    const group = this.#groupMetadata();
    await this.#syncAssignment();
    const pending = this.#pendingClockOutput;
    this.#pendingClockOutput = [];
    const out: OutgoingRecord[] = [...pending];
    const plan = this.#plan;
    const assigned = this.#assigned;
    const last = new Map<string, BufferMessage>();
    const now = Date.now();
    /** Each partition's position before this batch, to go back to when its transaction is aborted. */
    const before = new Map<string, bigint | undefined>();
    const admitted: BufferMessage[] = [];
    for (const message of batch) {
      const key = tpKey(message.topic, message.partition);
      // a partition that moved to another worker: its next owner reads it from the committed offset
      if (assigned && !assigned.has(key)) continue;
      // read again after a rebalance that left the partition here: processed already
      const position = this.#positions.get(key);
      if (position !== undefined && message.offset < position) continue;
      if (!before.has(key)) before.set(key, position);
      this.#positions.set(key, message.offset + 1n);
      last.set(key, message);
      admitted.push(message);
      if (plan.stages.has(message.topic)) {
        this.#idle.active(key, now);
        continue;
      }
      if (!plan.byInput.has(message.topic)) continue;
      // offsets skipped: deleted by retention before they were read? (or control records, compaction)
      if (position !== undefined && message.offset > position)
        this.#retentionCheck.gap(message.topic, message.partition, position, message.offset);
      if (this.#retention.record(message.topic, message.partition, message.offset, message.timestamp, now))
        this.stats.add(metricNames.nearRetention, [message.topic]);
    }
    const processed = processBatch(admitted, plan, this.#stateStore, this.#processEnv());
    for (const warning of processed.warnings) this.#options.onLog('warn', warning);
    out.push(...processed.out);
    this.#stateStore.drain(out);
    // at_least_once: written after the batches before it, while the loop goes on with the next; a
    // failure is thrown by the loop's next look at the sink (then everything restarts from the
    // committed offsets). exactly_once_v2: written in its transaction before the next batch.
    const refused = await this.#sink.write({ out, last, started, clockOutput: pending }, group, this.#consumer);
    if (refused !== undefined) this.#rollBack(batch, before, refused);
  }

  /**
   * The group moved to a new generation while a batch's transaction was open, so the coordinator
   * refused its offsets and the transaction was aborted (as Kafka Streams aborts on revocation):
   * nothing of the batch is visible. The worker goes back to where the batch started, without
   * leaving the group (leaving would start yet another rebalance, failing the other members' open
   * transactions in turn): the batch's records wait again in front, each partition's position is
   * the one before the batch, and the stage state (changed by the batch and by idle steps) is
   * dropped and restored from the changelogs (read_committed: as of the last committed batch) when
   * the next batch syncs the new assignment. Records of partitions that moved are left to their new
   * owner, which reads them from the committed offsets.
   */
  #rollBack(batch: BufferMessage[], before: ReadonlyMap<string, bigint | undefined>, reason: string): void {
    this.#queues.putBack(batch);
    for (const [key, position] of before) {
      if (position === undefined) this.#positions.delete(key);
      else this.#positions.set(key, position);
    }
    for (const [topic, partition] of [...this.#stateStore.partitions()]) this.#stateStore.drop(topic, partition);
    this.#idle.clearSteps();
    this.#assigned = null;
    this.#options.onLog(
      'info',
      `stream worker ${this.#options.index}: transaction aborted, the group rebalanced under it (${reason}); the batch is processed again under the new assignment`,
    );
  }

  /** The consumer's group membership now (generation, member id), for the offsets of a transaction. */
  #groupMetadata(): GroupMetadata | undefined {
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

  /**
   * The idle close (weir.stream.idle-close-seconds, off by default): a stage partition that got no
   * record for that long has its stream time moved on by the wall-clock time that passed, so its
   * emit=close windows close without a later event. What they emit goes through the rest of the
   * topology and is written with the next batch (inside its transaction under exactly_once_v2).
   */
  #advanceClock(): void {
    const idleMs = this.#options.idleCloseMs ?? 0;
    if (idleMs <= 0 || this.#state !== 'RUNNING' || this.#rebalancing) return;
    const now = Date.now();
    const ticks: { topic: string; partition: number; idleFor: number }[] = [];
    for (const [topic, partition] of [...this.#stateStore.partitions()]) {
      const stage = this.#plan.stages.get(topic);
      if (!stage?.topology.tasks[stage.taskIndex]?.advanceBy) continue;
      const idleFor = this.#idle.step(tpKey(topic, partition), now, idleMs);
      if (idleFor !== undefined) ticks.push({ topic, partition, idleFor });
    }
    const out = processTicks(ticks, this.#plan, this.#stateStore, this.#processEnv());
    this.#pendingClockOutput.push(...out);
    if (out.length > 0) this.#wake?.();
  }

  #processEnv(): ProcessEnv {
    return { alertsTopic: this.#options.alertsTopic, stats: this.stats, stagePartitions: this.#stagePartitions };
  }

  async #ensureClients(): Promise<void> {
    const o = this.#options;
    this.#admin ??= new Admin({ ...o.connection, clientId: `${o.clientId}-admin` });
    await this.#sink.open();
  }

  async #closeConsumer(): Promise<void> {
    const stream = this.#stream;
    const consumer = this.#consumer;
    this.#stream = undefined;
    this.#consumer = undefined;
    this.#subscribed = '';
    // what was read and not committed is read again by whoever gets the partitions; state is restored from the changelogs
    this.#queues.clear();
    this.#retentionCheck.reset();
    this.#positions.clear();
    this.#assigned = null;
    this.#rebalancing = false;
    for (const [topic, partition] of [...this.#stateStore.partitions()]) this.#stateStore.drop(topic, partition);
    if (stream) await this.#closing(stream.close(), 'the consumer stream');
    if (consumer) await this.#closing(consumer.close(true), 'the consumer');
  }

  async #closeClients(): Promise<void> {
    this.#epoch++;
    await this.#closeConsumer();
    const admin = this.#admin;
    const restorer = this.#restorer;
    this.#admin = undefined;
    this.#restorer = undefined;
    if (restorer) await this.#closing(restorer.close(true), 'the restore consumer');
    this.#knownTopics.clear();
    await this.#sink.close();
    if (admin) await this.#closing(admin.close(), 'the admin client');
  }

  /** Waits for a client to close, at most closeDeadlineMs: a close that hangs is left behind (a failed close is no news). */
  async #closing(close: Promise<unknown>, what: string): Promise<void> {
    await withDeadline(close, closeDeadlineMs, `closing ${what}`).catch((err: unknown) => {
      if (err instanceof DeadlineExceeded)
        this.#options.onLog('warn', `stream worker ${this.#options.index}: ${err.message}; left behind`);
    });
  }

  async #sleepOrWake(ms: number): Promise<void> {
    await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.#wake = resolve))]);
    this.#wake = undefined;
  }

  /** The retention look-ups (every 5 s, retention-check.ts): settings when due, records deleted unread. */
  async checkRetention(): Promise<void> {
    if (this.#state === 'RUNNING' && !this.#rebalancing) await this.#retentionCheck.tick();
  }

  /** Consumer lag per partition (high watermark − committed position), for the metrics. */
  async measureLag(): Promise<void> {
    const consumer = this.#consumer;
    if (!consumer || this.#plan.inputTopics.length === 0) return;
    try {
      const topics = this.#plan.inputTopics.filter((t) => this.#knownTopics.has(t));
      const lag = await consumer.getLag({ topics });
      const entries: [string, number, number][] = [];
      for (const [topic, partitions] of lag)
        partitions.forEach((l, p) => {
          if (l >= 0n) entries.push([topic, p, Number(l)]);
        });
      this.stats.lag(entries);
    } catch {
      // lag is best effort; the next tick tries again
    }
  }
}
