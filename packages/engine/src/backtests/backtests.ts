import { randomUUID } from 'node:crypto';
import type { BacktestProgress, BacktestResult, BacktestState, BacktestStatus } from '@weir/contract';
import type { LookupResolver } from '@weir/pdl';
import { domainError } from '../core/errors.ts';
import type { FetchedRecord } from '../stream/records.ts';
import { BacktestEvaluator, type BacktestAlert } from './backtest-evaluator.ts';
import type { BacktestInput, BacktestPlan } from './backtest-request.ts';
import type { PartitionRange, RangeReader } from './range-reader.ts';

export interface BacktestLimits {
  readonly maxEvents: number;
  readonly deadlineSeconds: number;
  readonly maxPerUser: number;
  /** Events a second one backtest reads at most (0: as fast as it can), so backtests leave the node's CPU to its live work. */
  readonly maxEventsPerSecond?: number;
}

/** What a backtest needs of Kafka: a topic's partition count (undefined: no such topic) and a range reader. */
export interface BacktestKafka {
  partitions(topic: string): Promise<number | undefined>;
  reader(): RangeReader;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** How long an ended backtest stays readable. */
const keepMs = 3600_000;
/** Progress is pushed to listeners at most this often (and at every change of state). */
const progressEveryMs = 250;
/** Records processed between two turns of the event loop. */
const sliceRecords = 1000;

type Listener = (status: BacktestStatus) => void;

interface Job {
  readonly id: string;
  readonly user: string;
  readonly created: number;
  state: BacktestState;
  ended?: number;
  progress: BacktestProgress;
  error?: string;
  result?: BacktestResult;
  readonly abort: AbortController;
  readonly listeners: Set<Listener>;
}

/**
 * Counts and the first N alerts per rule, and the alert ids of both sides for the diff, with the
 * alert records of each diff set's first N ids. An alert id is the rule id and its source record
 * (docs/alerts.md), so both sides raise the same id only on the same record: the records of a
 * set are classified record by record, as `step` receives them.
 */
class Tally {
  readonly #first: number;
  readonly #rules: Map<string, { alerts: number; first: Record<string, unknown>[] }>;
  readonly candidateIds = new Set<string>();
  readonly currentIds = new Set<string>();
  readonly #records = {
    onlyCandidate: new Map<string, Record<string, unknown>>(),
    onlyCurrent: new Map<string, Record<string, unknown>>(),
    both: new Map<string, Record<string, unknown>>(),
  };

  constructor(ruleIds: readonly string[], first: number) {
    this.#first = first;
    this.#rules = new Map(ruleIds.map((id) => [id, { alerts: 0, first: [] }]));
  }

  /** The alerts of one record: the candidate's and those of the rules in force. */
  step(candidate: readonly BacktestAlert[], current: readonly BacktestAlert[]): void {
    this.#candidate(candidate);
    for (const a of current) this.currentIds.add(a.id);
    if (candidate.length === 0 && current.length === 0) return;
    const inCurrent = new Set(current.map((a) => a.id));
    const inCandidate = new Set(candidate.map((a) => a.id));
    for (const a of candidate) this.#keep(inCurrent.has(a.id) ? 'both' : 'onlyCandidate', a);
    for (const a of current) if (!inCandidate.has(a.id)) this.#keep('onlyCurrent', a);
  }

  #keep(set: 'onlyCandidate' | 'onlyCurrent' | 'both', a: BacktestAlert): void {
    const kept = this.#records[set];
    if (kept.size < this.#first && !kept.has(a.id)) kept.set(a.id, a.alert);
  }

  #candidate(alerts: readonly BacktestAlert[]): void {
    for (const a of alerts) {
      this.candidateIds.add(a.id);
      const r = this.#rules.get(a.rule);
      if (!r) continue;
      r.alerts++;
      if (r.first.length < this.#first) r.first.push(a.alert);
    }
  }

  result(events: number, unreadable: number): BacktestResult {
    const onlyCandidate: string[] = [];
    const both: string[] = [];
    for (const id of this.candidateIds) (this.currentIds.has(id) ? both : onlyCandidate).push(id);
    const onlyCurrent = [...this.currentIds].filter((id) => !this.candidateIds.has(id));
    const set = (ids: string[], records: Map<string, Record<string, unknown>>) => {
      const first = ids.slice(0, this.#first);
      const alerts = first.map((id) => records.get(id)).filter((a): a is Record<string, unknown> => a !== undefined);
      return { count: ids.length, first, alerts };
    };
    return {
      events,
      rules: [...this.#rules].map(([id, r]) => ({ id, alerts: r.alerts, first: r.first })),
      diff: {
        onlyCandidate: set(onlyCandidate, this.#records.onlyCandidate),
        onlyCurrent: set(onlyCurrent, this.#records.onlyCurrent),
        both: set(both, this.#records.both),
      },
      unreadable,
    };
  }
}

/**
 * The backtests of one node (docs/detection-as-code.md, "Backtests over Kafka"): each runs
 * asynchronously, the candidate (rules, a pipeline or a topology) and what is in force side by side through the engine's
 * processing stage (BacktestEvaluator) over the same records, read outside every consumer group
 * (RangeReader) or taken from the request; nothing is written to any topic. Bounded by the
 * limits: events per backtest (refused before it starts), a deadline, backtests per user, cancel.
 */
export class Backtests {
  readonly #jobs = new Map<string, Job>();
  readonly #limits: () => BacktestLimits;
  readonly #kafka: BacktestKafka;

  constructor(limits: () => BacktestLimits, kafka: BacktestKafka) {
    this.#limits = limits;
    this.#kafka = kafka;
  }

  /** Checks the plan against the topic and the limits, then starts it; answers its first status. */
  async start(user: string, plan: BacktestPlan, lookups: LookupResolver): Promise<BacktestStatus> {
    const limits = this.#limits();
    this.#sweep();
    const mine = [...this.#jobs.values()].filter(
      (j) => j.user === user && (j.state === 'queued' || j.state === 'running'),
    );
    if (mine.length >= limits.maxPerUser) throw domainError('BACKTEST_LIMIT', limits.maxPerUser);
    const { input } = plan;
    let partitions = 1;
    if (input.kind !== 'events') {
      const count = await this.#kafka.partitions(input.topic);
      if (count === undefined)
        throw domainError('BACKTEST_INVALID', `source.topic: topic '${input.topic}' does not exist`);
      partitions = count;
      if (input.kind === 'offsets')
        for (const p of input.offsets.keys())
          if (p >= partitions)
            throw domainError(
              'BACKTEST_INVALID',
              `source.offsets.${p}: topic '${input.topic}' has no partition ${p}; it has ${partitions} (0 to ${partitions - 1})`,
            );
    } else if (input.events.length > limits.maxEvents)
      throw domainError(
        'BACKTEST_INVALID',
        `source.events: ${input.events.length} events, more than the ${limits.maxEvents} a backtest may read (setting weir.backtest.max-events)`,
      );
    const job: Job = {
      id: randomUUID(),
      user,
      created: Date.now(),
      state: 'queued',
      progress: { eventsRead: 0, share: 0, eventsPerSecond: 0 },
      abort: new AbortController(),
      listeners: new Set(),
    };
    this.#jobs.set(job.id, job);
    let ranges: PartitionRange[] | undefined;
    try {
      ranges = input.kind === 'events' ? undefined : await this.#ranges(input);
    } catch (err) {
      this.#jobs.delete(job.id);
      throw err;
    }
    const total =
      input.kind === 'events' ? input.events.length : ranges!.reduce((n, r) => n + Number(r.end - r.start), 0);
    if (total > limits.maxEvents) {
      this.#jobs.delete(job.id);
      throw domainError(
        'BACKTEST_INVALID',
        `source: the range holds ${total} records, more than the ${limits.maxEvents} a backtest may read (setting weir.backtest.max-events); narrow it`,
      );
    }
    void this.#run(job, plan, lookups, partitions, ranges, total, limits);
    return statusOf(job);
  }

  async #ranges(input: Exclude<BacktestInput, { kind: 'events' }>): Promise<PartitionRange[]> {
    const reader = this.#kafka.reader();
    if (input.kind === 'times') return reader.timeRange(input.topic, input.from, input.to);
    const { first, end } = await reader.bounds(input.topic);
    return [...input.offsets].map(([partition, [start, stop]]) => {
      const low = first[partition]!;
      const high = end[partition]!;
      if (BigInt(start) < low || BigInt(stop) > high)
        throw domainError(
          'BACKTEST_INVALID',
          `source.offsets.${partition}: [${start}, ${stop}] is outside partition ${partition} of '${input.topic}', which holds offsets ${low} to ${high} (end excluded)`,
        );
      return { partition, start: BigInt(start), end: BigInt(stop) };
    });
  }

  async #run(
    job: Job,
    plan: BacktestPlan,
    lookups: LookupResolver,
    partitions: number,
    ranges: readonly PartitionRange[] | undefined,
    total: number,
    limits: BacktestLimits,
  ): Promise<void> {
    const { deadlineSeconds, maxEventsPerSecond = 0 } = limits;
    const topic = plan.input.kind === 'events' ? '(events)' : plan.input.topic;
    const deadline = setTimeout(() => job.abort.abort('deadline'), deadlineSeconds * 1000);
    deadline.unref();
    try {
      await Promise.resolve();
      if (job.abort.signal.aborted) return;
      const candidate = new BacktestEvaluator(plan.candidate, lookups, topic, partitions);
      const current = new BacktestEvaluator(plan.current, lookups, topic, partitions);
      const tally = new Tally(plan.rules, plan.first);
      const started = Date.now();
      let read = 0;
      let pushed = 0;
      this.#set(job, 'running');
      const chunks = ranges
        ? this.#kafka.reader().read(topic, ranges, job.abort.signal)
        : eventChunks(plan.input.kind === 'events' ? plan.input.events : [], started);
      reading: for await (const chunk of chunks) {
        // a fetch holds up to 4 MiB a partition: processed in slices, the event loop (the API, the
        // progress events, a cancel) served between them
        for (let i = 0; i < chunk.length; i += sliceRecords) {
          // cancelled while it waited: nothing more is read (the status sent at the cancel stays the last)
          if (job.abort.signal.aborted) break reading;
          const slice = chunk.slice(i, i + sliceRecords);
          for (const record of slice) tally.step(candidate.record(record), current.record(record));
          read += slice.length;
          const seconds = (Date.now() - started) / 1000;
          job.progress = {
            eventsRead: read,
            share: total === 0 ? 1 : Math.min(1, read / total),
            eventsPerSecond: seconds > 0 ? Math.round(read / seconds) : read,
          };
          if (Date.now() - pushed >= progressEveryMs) {
            pushed = Date.now();
            this.#notify(job);
          }
          if (job.abort.signal.aborted) break reading;
          // the rate limit: ahead of it, wait until the events read are due (a cancel ends the wait)
          const ahead = maxEventsPerSecond > 0 ? (read / maxEventsPerSecond) * 1000 - (Date.now() - started) : 0;
          await (ahead > 1 ? abortableDelay(ahead, job.abort.signal) : new Promise((r) => setImmediate(r)));
        }
      }
      if (job.abort.signal.reason === 'deadline') {
        job.error = `the deadline of ${deadlineSeconds} s passed after reading ${read} of ${total} events (setting weir.backtest.deadline-seconds); narrow the range`;
        return this.#set(job, 'failed');
      }
      if (job.abort.signal.aborted) return;
      job.result = tally.result(read, candidate.deadLetters);
      job.progress = { ...job.progress, share: 1 };
      this.#set(job, 'done');
    } catch (err) {
      job.error = (err as Error).message;
      this.#set(job, 'failed');
    } finally {
      clearTimeout(deadline);
    }
  }

  #set(job: Job, state: BacktestState): void {
    if (job.state === 'cancelled') return;
    job.state = state;
    if (state !== 'queued' && state !== 'running') job.ended = Date.now();
    this.#notify(job);
  }

  #notify(job: Job): void {
    const status = statusOf(job);
    for (const l of job.listeners) l(status);
  }

  /** A backtest its user (or an admin) may see; 404 otherwise. */
  #find(id: string, user: string, admin: boolean): Job {
    const job = this.#jobs.get(id);
    if (!job || (!admin && job.user !== user)) throw domainError('BACKTEST_MISSING', id);
    return job;
  }

  get(id: string, user: string, admin: boolean): BacktestStatus {
    return statusOf(this.#find(id, user, admin));
  }

  list(user: string, admin: boolean): BacktestStatus[] {
    this.#sweep();
    return [...this.#jobs.values()].filter((j) => admin || j.user === user).map(statusOf);
  }

  /** Cancels a queued or running backtest (an ended one is left as it is); answers its status. */
  cancel(id: string, user: string, admin: boolean): BacktestStatus {
    const job = this.#find(id, user, admin);
    if (job.state === 'queued' || job.state === 'running') {
      job.abort.abort('cancelled');
      job.error = `cancelled by ${user}`;
      this.#set(job, 'cancelled');
    }
    return statusOf(job);
  }

  /** Calls `listener` with the status at every change and with progress; returns the unsubscribe. */
  subscribe(id: string, user: string, admin: boolean, listener: Listener): () => void {
    const job = this.#find(id, user, admin);
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  /** Cancels every backtest (the node stops). */
  close(): void {
    for (const job of this.#jobs.values()) job.abort.abort('cancelled');
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, job] of this.#jobs) if (job.ended !== undefined && now - job.ended > keepMs) this.#jobs.delete(id);
  }
}

export const isActive = (s: BacktestStatus): boolean => s.state === 'queued' || s.state === 'running';

function statusOf(job: Job): BacktestStatus {
  return {
    id: job.id,
    user: job.user,
    state: job.state,
    created: new Date(job.created).toISOString(),
    ...(job.ended !== undefined ? { ended: new Date(job.ended).toISOString() } : {}),
    progress: job.progress,
    ...(job.error !== undefined ? { error: job.error } : {}),
    ...(job.result !== undefined ? { result: job.result } : {}),
  };
}

/**
 * Uploaded events as records of a topic `(events)` with one partition, offset = index; the
 * record timestamp is the event's `_time` when it is a number, else the time the backtest started.
 */
async function* eventChunks(events: readonly unknown[], now: number): AsyncGenerator<FetchedRecord[]> {
  for (let i = 0; i < events.length; i += 1000) {
    yield events.slice(i, i + 1000).map((event, k) => {
      const time = (event as Record<string, unknown>)['_time'];
      return {
        topic: '(events)',
        partition: 0,
        offset: BigInt(i + k),
        key: undefined,
        value: Buffer.from(JSON.stringify(event)),
        timestamp: BigInt(typeof time === 'number' && Number.isFinite(time) ? Math.trunc(time) : now),
        headers: new Map(),
      } as unknown as FetchedRecord;
    });
  }
}
