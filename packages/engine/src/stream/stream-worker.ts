import { BatchRound } from './batch-round.ts';
import type { ConfigSnapshot } from './config-snapshot.ts';
import { withDeadline } from './deadline.ts';
import { metricNames } from './metric-names.ts';
import { Sink } from './sink/sink.ts';
import { describeFailure, Source } from './source/source.ts';
import { StageState } from './state/stage-state.ts';
import { Wakeup } from './wakeup.ts';
import { emptyPlan, WorkerPlan } from './worker-plan.ts';
import type { StreamWorkerOptions } from './worker-protocol.ts';
import { WorkerStats } from './worker-stats.ts';
import type { WorkerState } from './worker-states.ts';

/** Deadline of the set-up: clients, topics and the group join (the join alone may take the 60-s rebalance timeout). */
const setUpDeadlineMs = 90_000;

/**
 * One stream worker: a loop over its stages (docs/architecture.md, "Stream runtime"). The source
 * fetches a batch, the state follows the assignment, the process stage runs the batch through the
 * compiled plan, the sink writes its outputs and commits its offsets (pipelined under
 * at_least_once, in one transaction under exactly_once_v2). Any failure restarts everything from
 * the committed offsets, so nothing is lost. A new configuration is compiled off the loop and
 * swapped in between two batches. The loop makes no Kafka call of its own.
 */
export class StreamWorker {
  readonly stats = new WorkerStats();
  readonly #o: StreamWorkerOptions;
  readonly #wakeup = new Wakeup();
  readonly #source: Source;
  readonly #state: StageState;
  readonly #sink: Sink;
  readonly #compiler: WorkerPlan;
  #plan = emptyPlan;
  #status: WorkerState = 'CREATED';
  #running = false;
  #planDirty = false;
  #loop: Promise<void> | undefined;
  #clockTimer: NodeJS.Timeout | undefined;
  /** One batch through the stages (and the idle clock's output waiting for the next). */
  readonly #round: BatchRound;
  #stopped = new AbortController(); // aborted at a stop (a wait for stable offsets ends)
  /** Counts teardowns after a failure: a set-up step abandoned at its deadline that ends after one changes nothing. */
  #epoch = 0;
  /** The part of the set-up under way, named when it misses its deadline. */
  #step = '';

  constructor(options: StreamWorkerOptions) {
    // Short timeouts: a request lost to a restarting broker must fail fast so the worker can rebuild.
    const o = { ...options, connection: { ...options.connection, connectTimeout: 5000, requestTimeout: 10_000 } };
    const stage = { ...o, stats: this.stats, worker: `stream worker ${o.index}` };
    this.#o = o;
    this.#sink = new Sink({ ...stage, commitIntervalMs: o.commitIntervalMs ?? 0 });
    // at a join the sink commits the offsets a rebalance refused, at once (a notice from source to sink)
    this.#source = new Source({ ...stage, onJoin: () => this.#sink.commitSoon() }, this.#wakeup);
    this.#state = new StageState(stage);
    this.#compiler = new WorkerPlan(
      {
        group: o.group,
        groupId: o.groupId,
        stats: this.stats,
        ...(o.lookupIndexes ? { indexes: o.lookupIndexes } : {}),
      },
      this.#state.store,
    );
    const env = { alertsTopic: o.alertsTopic, stats: this.stats, stagePartitions: this.#sink.topics.partitions };
    const onWarning = (message: string) => o.onLog('warn', message);
    this.#round = new BatchRound({ source: this.#source, state: this.#state, sink: this.#sink, env, onWarning });
  }

  get state(): WorkerState {
    return this.#status;
  }

  /** Compiles a configuration snapshot; the loop picks it up before its next batch. */
  configure(snapshot: ConfigSnapshot): void {
    const { plan, warnings } = this.#compiler.compile(snapshot);
    for (const warning of warnings) this.#o.onLog('warn', warning);
    this.#plan = this.#source.plan = plan;
    this.#planDirty = true;
    this.#wakeup.wake();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#stopped = new AbortController();
    this.#setState('REBALANCING');
    this.#clockTimer = setInterval(() => this.#advanceClock(), 1000);
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    if (!this.#running) return this.#setState('NOT_RUNNING');
    this.#running = false;
    this.#stopped.abort();
    this.#setState('PENDING_SHUTDOWN');
    clearInterval(this.#clockTimer);
    this.#wakeup.wake();
    await this.#loop;
    await this.#closeClients();
    this.#setState('NOT_RUNNING');
  }

  #setState(state: WorkerState): void {
    if (this.#status !== state) this.#o.onState((this.#status = state));
  }

  async #run(): Promise<void> {
    for (let backoff = 500; this.#running;) {
      try {
        await withDeadline(this.#setUp(), setUpDeadlineMs, () => this.#step);
        this.#planDirty = false;
        this.#setState('RUNNING');
        backoff = 500;
        await this.#consumeBatches();
        await this.#sink.flush();
      } catch (err) {
        // nothing more is written or committed; what was not acknowledged is read again from the
        // committed offsets, the idle clock's output of those batches is kept for the next try
        await this.#round.reset();
        if (!this.#running) break;
        const failure = `${describeFailure(err)}; restarting from the committed offsets in ${backoff} ms`;
        this.#o.onLog('warn', `stream worker ${this.#o.index}: ${failure}`);
        this.#setState('REBALANCING');
        await this.#closeClients();
        await this.#wakeup.sleep(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /** Clients, input and stage topics, the group join; a step that ends after the set-up was given up goes no further. */
  async #setUp(): Promise<void> {
    const epoch = this.#epoch;
    const current = <T>(value?: T): T => {
      if (epoch !== this.#epoch) throw new Error(`${this.#step}: given up`);
      return value as T;
    };
    this.#step = 'opening the clients';
    await this.#sink.open().then(current);
    this.#step = 'listing the input topics';
    const topics = await this.#source.existingInputs().then(current);
    this.#step = "reading the input topics' retention";
    await this.#source.readRetention().then(current);
    this.#step = 'creating the stage topics';
    const stages = [...this.#plan.stages.values()].filter((s) => topics.includes(s.topology.input));
    topics.push(...(await this.#sink.ensureStageTopics(stages).then(current)).repartition);
    this.#step = 'joining the consumer group';
    if (this.#source.subscribedTo(topics)) return;
    this.#state.dropAll();
    if (topics.length > 0) this.#setState('REBALANCING');
    await this.#source.subscribe(topics, current);
  }

  /** Processes batches until the plan changes or the worker stops, or a failure (throws). */
  async #consumeBatches(): Promise<void> {
    let lastTopicCheck = Date.now();
    /** Set once the batches processed before a rebalance notice are written and committed. */
    let revoked = false;
    while (this.#running && !this.#planDirty) {
      // nothing to read (no topology for this group, or inputs missing): idle, re-checking topics
      if (!this.#source.subscribed) return this.#wakeup.sleep(5000).then(() => void this.#source.inputsMissing());
      if (this.#source.rebalancing) {
        // commit on revoke: what is processed is written and its offsets committed (a commit the
        // rebalance refuses is made again at the join)
        if (!revoked) await this.#sink.flush();
        revoked = true;
        this.#source.checkRebalance();
        await this.#wakeup.sleep(100);
        continue;
      }
      revoked = false;
      // at_least_once: the next batches are processed while one is written; the wait is a step of its own
      const waiting = performance.now();
      await this.#sink.room();
      this.stats.observe(metricNames.batchStep, 'backpressure', (performance.now() - waiting) / 1000);
      const batch = await this.#source.nextBatch();
      // the assignment may change under this batch: put it back, processed after the new assignment
      if (this.#source.rebalancing) this.#source.putBack(batch);
      else if (batch.length > 0 || this.#round.clockPending)
        await this.#round.run(batch, this.#plan, this.#stopped.signal);
      if (Date.now() - lastTopicCheck < 5000) continue;
      lastTopicCheck = Date.now();
      if (this.#source.inputsMissing()) return;
    }
  }

  /** The idle close, every second: what it emits is written with the next batch (woken for it). */
  #advanceClock(): void {
    const idleMs = this.#o.idleCloseMs ?? 0;
    if (idleMs <= 0 || this.#status !== 'RUNNING' || this.#source.rebalancing) return;
    if (this.#round.tick(this.#plan, idleMs)) this.#wakeup.wake();
  }

  async #closeClients(): Promise<void> {
    this.#epoch++;
    this.#state.dropAll();
    await this.#source.closeConsumer();
    await this.#state.close();
    await this.#sink.close();
    await this.#source.close();
  }

  /** The retention look-ups (every 5 s, retention-check.ts): settings when due, records deleted unread. */
  async checkRetention(): Promise<void> {
    if (this.#status === 'RUNNING' && !this.#source.rebalancing) await this.#source.checkRetention();
  }

  /** Consumer lag per partition (high watermark − committed position), for the metrics. */
  measureLag = (): Promise<void> => this.#source.measureLag();
}
