import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { streamMetrics } from './record-processor.ts';
import type { StatsReport } from './worker-stats.ts';
import { workerStates, type WorkerState } from './worker-states.ts';

/**
 * The node's Prometheus metrics (`GET /metrics`): stream counters fed by the workers' reports,
 * consumer lag, worker states, and the process defaults (CPU, memory, event loop).
 */
export class EngineMetrics {
  readonly registry = new Registry();
  readonly #counters: Map<string, Counter>;
  readonly #latency: Histogram;
  readonly #lag: Gauge;
  readonly #states: Gauge;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'weir_process_' });
    const counter = (name: string, help: string, labelNames: string[]) =>
      new Counter({ name, help, labelNames, registers: [this.registry] });
    this.#counters = new Map([
      [streamMetrics.recordsIn, counter(streamMetrics.recordsIn, 'Records read, per topology.', ['topology'])],
      [streamMetrics.recordsOut, counter(streamMetrics.recordsOut, 'Records written, per topology and output topic.', ['topology', 'topic'])],
      [streamMetrics.deadLettered, counter(streamMetrics.deadLettered, 'Records sent to a dead-letter topic, per topology and task.', ['topology', 'task'])],
      [streamMetrics.ruleMatches, counter(streamMetrics.ruleMatches, 'Rule matches (alerts), per rule.', ['rule'])],
      [streamMetrics.alerts, counter(streamMetrics.alerts, 'Alerts written to the alerts topic, per topology.', ['topology'])],
      [streamMetrics.skipped, counter(streamMetrics.skipped, 'Records not processed, per topic and reason (tombstone, encode).', ['topic', 'reason'])],
      ['weir_task_errors_total', counter('weir_task_errors_total', 'Recovered task errors (e.g. TIMESTAMP could not parse the time), per task.', ['task'])],
      ['weir_rules_skipped_total', counter('weir_rules_skipped_total', 'Rules APPLY_RULES skipped, per rule and reason (missing, disabled).', ['rule', 'reason'])],
    ]);
    this.#latency = new Histogram({
      name: 'weir_batch_processing_seconds',
      help: 'Time from a fetched batch to its acknowledged produce and commit.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.#lag = new Gauge({ name: 'weir_consumer_lag', help: 'Records not yet processed, per input topic and partition.', labelNames: ['topic', 'partition'], registers: [this.registry] });
    this.#states = new Gauge({ name: 'weir_worker_state', help: '1 for the current state of each stream worker.', labelNames: ['worker', 'state'], registers: [this.registry] });
  }

  report(report: StatsReport): void {
    for (const [name, labels, delta] of report.counters) this.#counters.get(name)?.labels(...labels).inc(delta);
    for (const seconds of report.latencies) this.#latency.observe(seconds);
    for (const [topic, partition, lag] of report.lag) this.#lag.labels(topic, String(partition)).set(lag);
  }

  workerState(worker: number, state: WorkerState): void {
    for (const s of Object.keys(workerStates)) this.#states.labels(String(worker), s).set(s === state ? 1 : 0);
  }
}
