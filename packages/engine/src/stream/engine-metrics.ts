import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { metricNames as m } from './metric-names.ts';
import type { StatsReport } from './worker-stats.ts';
import { workerStates, type WorkerState } from './worker-states.ts';

/** Buckets of the step histograms: fine below 100 ms (where a latency goal sits), coarse up to a minute. */
const stepBuckets = [
  0.0005, 0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/**
 * The node's Prometheus metrics (`GET /metrics`): stream counters fed by the workers' reports,
 * consumer lag, worker states, and the process defaults (CPU, memory, event loop).
 */
export class EngineMetrics {
  readonly registry = new Registry();
  readonly #counters: Map<string, Counter>;
  readonly #latency: Histogram;
  /** weir_record_age_seconds and weir_batch_step_seconds, by name. */
  readonly #steps: Map<string, Histogram>;
  readonly #lag: Gauge;
  readonly #states: Gauge;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: m.processPrefix });
    const counter = (name: string, help: string, labelNames: string[]) =>
      new Counter({ name, help, labelNames, registers: [this.registry] });
    this.#counters = new Map([
      [m.recordsIn, counter(m.recordsIn, 'Records read, per topology.', ['topology'])],
      [m.recordsOut, counter(m.recordsOut, 'Records written, per topology and output topic.', ['topology', 'topic'])],
      [
        m.deadLettered,
        counter(m.deadLettered, 'Records sent to a dead-letter topic, per topology and task.', ['topology', 'task']),
      ],
      [m.ruleMatches, counter(m.ruleMatches, 'Rule matches (alerts), per rule.', ['rule'])],
      [
        m.ruleSuppressed,
        counter(
          m.ruleSuppressed,
          "Alerts of a rule's suppression, per rule and outcome (suppressed: counted, not written; duplicate: an input record read again, not counted twice; late: written, the window opened after its close).",
          ['rule', 'outcome'],
        ),
      ],
      [m.alerts, counter(m.alerts, 'Alerts written to the alerts topic, per topology.', ['topology'])],
      [
        m.offsetCommits,
        counter(m.offsetCommits, 'Input offsets committed (OffsetCommit requests, or transactions).', []),
      ],
      [
        m.skipped,
        counter(m.skipped, 'Records not processed, per topic and reason (tombstone, encode).', ['topic', 'reason']),
      ],
      [
        m.taskErrors,
        counter(m.taskErrors, 'Recovered task errors (e.g. TIMESTAMP could not parse the time), per task.', ['task']),
      ],
      [
        m.rulesSkipped,
        counter(m.rulesSkipped, 'Rules APPLY_RULES skipped, per rule and reason (missing, disabled).', [
          'rule',
          'reason',
        ]),
      ],
      [
        m.nearRetention,
        counter(m.nearRetention, "Input records read older than half their topic's retention.ms, per topic.", [
          'topic',
        ]),
      ],
      [
        m.deletedUnread,
        counter(m.deletedUnread, 'Input records the broker deleted before they were read, per topic.', ['topic']),
      ],
      [
        m.notificationsSent,
        counter(m.notificationsSent, 'Alerts a notifier received (a 2xx answer), per notifier.', ['notifier']),
      ],
      [
        m.notificationsRetried,
        counter(m.notificationsRetried, 'Failed webhook attempts followed by another, per notifier.', ['notifier']),
      ],
      [
        m.notificationsDeadLettered,
        counter(
          m.notificationsDeadLettered,
          'Deliveries given up after their last attempt and written to the notify dead-letter topic, per notifier.',
          ['notifier'],
        ),
      ],
    ]);
    this.#latency = new Histogram({
      name: m.batchSeconds,
      help: 'Time from a fetched batch to its acknowledged produce and commit.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const stepHistogram = (name: string, help: string) =>
      new Histogram({ name, help, labelNames: ['step'], buckets: stepBuckets, registers: [this.registry] });
    this.#steps = new Map([
      [
        m.recordAge,
        stepHistogram(
          m.recordAge,
          "Age of each batch's oldest record (now minus its Kafka timestamp: create or append time, by the topic's message.timestamp.type; 0 for a timestamp ahead of the clock) when its batch is taken from the fetched records (taken), handed to the sink (processed) and its output acknowledged (acknowledged), per step.",
        ),
      ],
      [
        m.batchStep,
        stepHistogram(
          m.batchStep,
          "Time a batch spends in each step: taken to handed to the sink (process), handed over to its produce sent (write_wait), produce sent to acknowledged (produce; exactly_once_v2: its transaction), a write held back for a commit by the bound on records written and not committed (commit_wait, part of write_wait), one offset commit (commit), the worker's loop waiting for room in the write pipeline before it takes the next batch (backpressure).",
        ),
      ],
    ]);
    this.#lag = new Gauge({
      name: m.consumerLag,
      help: 'Records not yet processed, per input topic and partition.',
      labelNames: ['topic', 'partition'],
      registers: [this.registry],
    });
    this.#states = new Gauge({
      name: m.workerState,
      help: '1 for the current state of each stream worker.',
      labelNames: ['worker', 'state'],
      registers: [this.registry],
    });
  }

  report(report: StatsReport): void {
    for (const [name, labels, delta] of report.counters)
      this.#counters
        .get(name)
        ?.labels(...labels)
        .inc(delta);
    for (const seconds of report.latencies) this.#latency.observe(seconds);
    for (const [name, step, values] of report.steps) {
      const histogram = this.#steps.get(name)?.labels(step);
      if (histogram) for (const seconds of values) histogram.observe(seconds);
    }
    for (const [topic, partition, lag] of report.lag) this.#lag.labels(topic, String(partition)).set(lag);
  }

  /** Adds to a counter of this node's own (not a worker's): the notifications'. */
  count(name: string, labels: readonly string[], delta = 1): void {
    this.#counters
      .get(name)
      ?.labels(...labels)
      .inc(delta);
  }

  workerState(worker: number, state: WorkerState): void {
    for (const s of Object.keys(workerStates)) this.#states.labels(String(worker), s).set(s === state ? 1 : 0);
  }
}
