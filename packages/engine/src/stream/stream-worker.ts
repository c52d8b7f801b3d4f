import { withRule } from '../tasks/rule-alert.ts';
import { Admin, Consumer, FetchIsolationLevels, ProduceAcks, Producer, type BaseOptions, type Message, type MessagesStream } from '@platformatic/kafka';
import { brokerReason, isTopicAlreadyExists } from '../kafka/broker-errors.ts';
import type { ConfigSnapshot } from './config-snapshot.ts';
import { deadLetterTopic } from './dead-letter.ts';
import { processRecord, streamMetrics, timestampSafeRuns, writeOutputs, type OutgoingRecord } from './record-processor.ts';
import { buildPlan, LookupBook, RuleBook, TaskCache, type StreamPlan } from './topology-plan.ts';
import { WorkerStats } from './worker-stats.ts';
import type { WorkerState } from './worker-states.ts';

type Connection = Pick<BaseOptions, 'bootstrapBrokers' | 'tls' | 'sasl' | 'connectTimeout' | 'requestTimeout'>;
type BufferMessage = Message<Buffer, Buffer, Buffer, Buffer>;

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
  readonly onState: (state: WorkerState) => void;
  readonly onLog: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** The client's message plus the broker's reason when there is one (`… (CONCURRENT_TRANSACTIONS)`). */
function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = brokerReason(err);
  return reason === message ? message : `${message}: ${reason}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keepFetching = (): void => {};

/**
 * One stream worker: a consumer in the node group's consumer group and a producer. Loop: fetch a
 * batch → run it through the compiled plan → produce outputs, alerts and dead letters → commit
 * offsets once the produce is acknowledged (at-least-once) or inside a Kafka transaction
 * (exactly_once_v2). Any failure restarts the consumer from the committed offsets, so nothing is
 * lost. A new configuration is compiled off the loop and swapped in between two batches.
 */
export class StreamWorker {
  readonly stats = new WorkerStats();
  readonly #options: StreamWorkerOptions;
  readonly #rules = new RuleBook();
  readonly #lookups = new LookupBook();
  readonly #tasks = new TaskCache();
  #plan: StreamPlan = { version: 0, byInput: new Map(), inputTopics: [], outputTopics: [], ruleTopologies: new Map() };
  #state: WorkerState = 'CREATED';
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #consumer: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #producer: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;
  #admin: Admin | undefined;
  #subscribed = '';
  #knownTopics = new Set<string>();
  #planDirty = false;
  #clockTimer: NodeJS.Timeout | undefined;
  /** The input topics last found missing, comma-separated. */
  #missingInputs = '';
  /** Records emitted by the clock, written with the next batch. */
  #pendingClockOutput: OutgoingRecord[] = [];
  /** Set when the consumer lost a broker connection: its stream may stall silently, so it is rebuilt. */
  #connectionLost: string | undefined;

  constructor(options: StreamWorkerOptions) {
    // Short timeouts: a request lost to a restarting broker must fail fast so the worker can rebuild.
    this.#options = { ...options, connection: { ...options.connection, connectTimeout: 5000, requestTimeout: 10_000 } };
  }

  get state(): WorkerState {
    return this.#state;
  }

  /** Compiles a configuration snapshot; the loop picks it up before its next batch. */
  configure(snapshot: ConfigSnapshot): void {
    if (snapshot.lookups) this.#lookups.update(snapshot.lookups);
    this.#rules.update(snapshot.rules, this.#lookups);
    for (const [id, reason] of this.#rules.broken) this.#options.onLog('warn', `rule ${id} is skipped: ${reason}`);
    this.#plan = buildPlan(snapshot, { group: this.#options.group, rules: this.#rules, lookups: this.#lookups,
      counters: { taskError: (task) => this.stats.add('weir_task_errors_total', [task.name]),
        ruleSkipped: (_task, ruleId, reason) => this.stats.add('weir_rules_skipped_total', [ruleId, reason]) } }, this.#tasks);
    for (const [, topologies] of this.#plan.byInput) {
      for (const t of topologies) if (t.failure) this.#options.onLog('warn', `topology ${t.name} cannot run: ${t.failure}; its records go to ${deadLetterTopic(t.input)}`);
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
        await this.#ensureClients();
        const inputs = await this.#existingInputs();
        const key = inputs.join('\u0000');
        if (key !== this.#subscribed || !this.#stream) await this.#subscribe(inputs, key);
        this.#planDirty = false;
        this.#setState('RUNNING');
        backoff = 500;
        await this.#consumeUntilReplan();
      } catch (err) {
        if (!this.#running) break;
        this.#options.onLog('warn', `stream worker ${this.#options.index}: ${describeFailure(err)}; restarting from the committed offsets in ${backoff} ms`);
        this.#setState('REBALANCING');
        await this.#closeClients();
        await this.#sleepOrWake(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /** Input topics that exist; missing ones are looked for again every 5 s. */
  async #existingInputs(): Promise<string[]> {
    const wanted = this.#plan.inputTopics;
    if (wanted.every((t) => this.#knownTopics.has(t))) return [...wanted];
    const topics = new Set(await this.#admin!.listTopics({ includeInternals: false }));
    this.#knownTopics = topics;
    const missing = wanted.filter((t) => !topics.has(t)).join(', ');
    // Said once per change of the missing set, not at every 5-s look.
    if (missing !== this.#missingInputs && missing) this.#options.onLog('warn', `input topic(s) ${missing} do not exist yet; waiting for them`);
    this.#missingInputs = missing;
    return wanted.filter((t) => topics.has(t));
  }

  async #subscribe(inputs: string[], key: string): Promise<void> {
    await this.#closeConsumer();
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
      // A member lost with its broker (or its process) holds its partitions until this times out.
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      rebalanceTimeout: 60_000,
      isolationLevel: o.guarantee === 'exactly_once_v2' ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED,
    });
    this.#connectionLost = undefined;
    const lost = (what: string) => () => {
      this.#connectionLost ??= what;
      this.#wake?.();
    };
    this.#consumer.on('client:broker:disconnect', lost('the connection to a broker closed'));
    this.#consumer.on('client:broker:failed', lost('a broker connection failed'));
    this.#stream = await this.#consumer.consume({ topics: inputs, mode: 'committed', fallbackMode: 'earliest', autocommit: false, highWaterMark: 4096 });
    this.#stream.on('error', (err: Error) => this.#options.onLog('warn', `consumer stream: ${err.message}`));
    // A 'readable' listener for the stream's whole life. #nextBatch removes its own listener while a
    // batch is processed; with none left, Node sets readableFlowing to null, and the client's fetch
    // loop (which fetches only while someone listens) stops for good: the stream stalls silently.
    this.#stream.on('readable', keepFetching);
  }

  /** Processes batches until the plan changes (resolves) or a failure (throws). */
  async #consumeUntilReplan(): Promise<void> {
    const stream = this.#stream;
    let lastTopicCheck = Date.now();
    while (this.#running && !this.#planDirty) {
      if (!stream) {
        // Nothing to read (no topology for this group, or inputs missing): idle, re-checking topics.
        await this.#sleepOrWake(5000);
        if (this.#plan.inputTopics.some((t) => !this.#knownTopics.has(t))) this.#knownTopics.clear();
        return;
      }
      const batch = await this.#nextBatch(stream);
      if (this.#connectionLost !== undefined && batch.length === 0) throw new Error(this.#connectionLost);
      if (stream.destroyed || (stream.readableEnded && batch.length === 0)) throw new Error('the consumer stream closed');
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
    const batch: BufferMessage[] = [];
    const drain = () => {
      let m: BufferMessage | null;
      while (batch.length < max && (m = stream.read() as BufferMessage | null) !== null) batch.push(m);
    };
    drain();
    if (batch.length > 0) return Promise.resolve(batch);
    return new Promise((resolve, reject) => {
      const done = () => {
        stream.off('readable', onReadable);
        stream.off('error', onError);
        stream.off('close', onClose);
        this.#wake = undefined;
        clearTimeout(timer);
      };
      const onReadable = () => {
        drain();
        if (batch.length > 0) {
          done();
          resolve(batch);
        }
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      const onClose = () => {
        done();
        resolve(batch);
      };
      // Wake up for a new plan or a stop even when no record arrives.
      this.#wake = () => {
        done();
        resolve(batch);
      };
      const timer = setTimeout(() => {
        done();
        resolve(batch);
      }, 1000);
      stream.on('readable', onReadable);
      stream.once('error', onError);
      stream.once('close', onClose);
    });
  }

  async #processBatch(batch: BufferMessage[]): Promise<void> {
    const started = performance.now();
    const pending = this.#pendingClockOutput;
    this.#pendingClockOutput = [];
    const out: OutgoingRecord[] = [...pending];
    const plan = this.#plan;
    const last = new Map<string, BufferMessage>();
    for (const message of batch) {
      const topologies = plan.byInput.get(message.topic);
      if (topologies) processRecord(message, topologies, this.#options.alertsTopic, this.stats, out);
      last.set(`${message.topic}\u0000${message.partition}`, message);
    }
    try {
      await this.#write(out, last);
    } catch (err) {
      // Unwritten clock output is kept for the next try; consumed records are read again from the committed offsets.
      this.#pendingClockOutput = pending.concat(this.#pendingClockOutput);
      throw err;
    }
    this.stats.latency((performance.now() - started) / 1000);
  }

  /** Writes a batch's output and commits its offsets: after the acknowledgement, or in one transaction. */
  async #write(out: OutgoingRecord[], last: Map<string, BufferMessage>): Promise<void> {
    await this.#ensureTopics(out);
    if (this.#options.guarantee === 'exactly_once_v2') {
      const tx = await this.#producer!.beginTransaction();
      try {
        for (const run of timestampSafeRuns(out)) if (run.length) await tx.send({ messages: run });
        if (last.size > 0) {
          await tx.addConsumer(this.#consumer!);
          for (const m of last.values()) await tx.addOffset(m);
        }
        await tx.commit();
      } catch (err) {
        await tx.abort().catch(() => {});
        throw err;
      }
    } else {
      for (const run of timestampSafeRuns(out)) if (run.length) await this.#producer!.send({ messages: run, acks: ProduceAcks.ALL });
      await Promise.all([...last.values()].map((m) => m.commit()));
    }
  }

  /** Output and dead-letter topics are created when missing (auto-creation is off on Weir's broker). */
  async #ensureTopics(out: OutgoingRecord[]): Promise<void> {
    let missing: Set<string> | undefined;
    for (const record of out) {
      if (!this.#knownTopics.has(record.topic)) (missing ??= new Set()).add(record.topic);
    }
    if (!missing) return;
    const existing = new Set(await this.#admin!.listTopics({ includeInternals: false }));
    const create = [...missing].filter((t) => !existing.has(t));
    if (create.length) {
      try {
        await this.#admin!.createTopics({ topics: create, partitions: 1, replicas: -1 });
        this.#options.onLog('info', `created topic(s) ${create.join(', ')}`);
      } catch (err) {
        if (!isTopicAlreadyExists(err)) throw err;
      }
    }
    for (const t of missing) this.#knownTopics.add(t);
    for (const t of existing) this.#knownTopics.add(t);
  }

  /**
   * Correlation windows that the clock closed (emit=close): PDL_EXPRESSION tasks emit to their
   * topology's outputs; correlation rules raise alerts (to the alerts topic and to the outputs of
   * the topologies whose APPLY_RULES lists them). Queued and written with the next batch, inside its
   * transaction under exactly_once_v2, and kept until that write succeeds.
   */
  #advanceClock(): void {
    if (this.#state !== 'RUNNING') return;
    const now = Date.now();
    const out = this.#pendingClockOutput;
    for (const [, topologies] of this.#plan.byInput) {
      for (const topology of topologies) {
        for (const task of topology.tasks) {
          const emitted = task.advanceTime?.(now);
          if (emitted && emitted.length) writeOutputs({ key: undefined }, topology, emitted, this.stats, out);
        }
      }
    }
    for (const rule of this.#rules.compiledRules()) {
      if (!rule.enabled || !rule.compiled.hasCorrelation) continue;
      const emitted = rule.compiled.advanceTime(now);
      if (emitted.length === 0) continue;
      const alerts = emitted.map((event) => ({
        value: withRule(event, rule),
        timestamp: typeof event._time === 'number' ? event._time : now,
      }));
      for (const alert of alerts) {
        out.push({ topic: this.#options.alertsTopic, value: Buffer.from(JSON.stringify(alert.value)), timestamp: BigInt(alert.timestamp) });
        this.stats.add(streamMetrics.ruleMatches, [rule.id]);
      }
      for (const topology of this.#plan.ruleTopologies.get(rule.id) ?? []) writeOutputs({ key: undefined }, topology, alerts, this.stats, out);
    }
    if (out.length > 0) this.#wake?.();
  }

  async #ensureClients(): Promise<void> {
    const o = this.#options;
    this.#admin ??= new Admin({ ...o.connection, clientId: `${o.clientId}-admin` });
    if (!this.#producer) {
      this.#producer = new Producer({
        ...o.connection,
        clientId: `${o.clientId}-producer`,
        idempotent: true,
        acks: ProduceAcks.ALL,
        // -1/-1 asks the coordinator for a fresh epoch of this transactional id; the client's default
        // (0/0) claims to be producer 0, which a coordinator that knows the id answers with
        // PRODUCER_FENCED, so a restarted node could never resume its transactions.
        ...(o.guarantee === 'exactly_once_v2' ? { transactionalId: o.transactionalId, producerId: -1n, producerEpoch: -1 } : {}),
      });
    }
  }

  async #closeConsumer(): Promise<void> {
    const stream = this.#stream;
    const consumer = this.#consumer;
    this.#stream = undefined;
    this.#consumer = undefined;
    this.#subscribed = '';
    await stream?.close().catch(() => {});
    await consumer?.close(true).catch(() => {});
  }

  async #closeClients(): Promise<void> {
    await this.#closeConsumer();
    const producer = this.#producer;
    const admin = this.#admin;
    this.#producer = undefined;
    this.#admin = undefined;
    this.#knownTopics.clear();
    await producer?.close().catch(() => {});
    await admin?.close().catch(() => {});
  }

  async #sleepOrWake(ms: number): Promise<void> {
    await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.#wake = resolve))]);
    this.#wake = undefined;
  }

  /** Consumer lag per partition (high watermark − committed position), for the metrics. */
  async measureLag(): Promise<void> {
    const consumer = this.#consumer;
    if (!consumer || this.#plan.inputTopics.length === 0) return;
    try {
      const topics = this.#plan.inputTopics.filter((t) => this.#knownTopics.has(t));
      const lag = await consumer.getLag({ topics });
      const entries: [string, number, number][] = [];
      for (const [topic, partitions] of lag) partitions.forEach((l, p) => { if (l >= 0n) entries.push([topic, p, Number(l)]); });
      this.stats.lag(entries);
    } catch {
      // lag is best effort; the next tick tries again
    }
  }
}

