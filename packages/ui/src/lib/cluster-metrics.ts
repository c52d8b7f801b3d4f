import type { MetricsSummary } from '@weir/contract';

/**
 * The cluster's figures from the metrics summaries of its nodes (docs/ui.md → Cluster). Each node's
 * counters are totals since that node started, so rates are taken per node (between two readings of
 * the same node; a counter that went down means the node restarted and counts from zero) and then
 * added up; totals are added up. Consumer lag is the consumer group's, which every node of the group
 * measures: each topic partition counts once, at its highest reading.
 */
export type Counters = Readonly<Record<string, number>>;
export type CounterKind = 'in' | 'out' | 'alerts' | 'dead' | 'rule' | 'suppressed';

const sep = '\u0000';
export const counterKey = (kind: CounterKind, ...labels: string[]): string => [kind, ...labels].join(sep);

/** One reading of one node as flat counters (`counterKey` → value). */
export function countersOf(s: MetricsSummary): Counters {
  const c: Record<string, number> = {};
  const add = (key: string, value: number) => (c[key] = (c[key] ?? 0) + value);
  for (const r of s.recordsIn) add(counterKey('in', r.topology), r.value);
  for (const r of s.recordsOut) add(counterKey('out', r.topology, r.topic), r.value);
  for (const r of s.alerts) add(counterKey('alerts', r.topology), r.value);
  for (const r of s.deadLettered) add(counterKey('dead', r.topology, r.task), r.value);
  for (const r of s.ruleMatches) add(counterKey('rule', r.rule), r.value);
  // alerts a rule's suppression held back (not duplicates or late ones); absent from older nodes
  for (const r of s.ruleSuppressed ?? [])
    if (r.outcome === 'suppressed') add(counterKey('suppressed', r.rule), r.value);
  return c;
}

export function sumCounters(all: readonly Counters[]): Counters {
  const c: Record<string, number> = {};
  for (const one of all) for (const [k, v] of Object.entries(one)) c[k] = (c[k] ?? 0) + v;
  return c;
}

/** Per second, between two readings of the same node. */
export function ratesBetween(before: MetricsSummary, after: MetricsSummary): Counters {
  const seconds = Math.max(0.001, (after.time - before.time) / 1000);
  const b = countersOf(before);
  const c: Record<string, number> = {};
  for (const [k, v] of Object.entries(countersOf(after))) {
    const was = b[k] ?? 0;
    c[k] = (v >= was ? v - was : v) / seconds;
  }
  return c;
}

/** The sum of the counters of one kind, optionally of one topology, optionally of one topic/task. */
export function total(c: Counters, kind: CounterKind, ...labels: string[]): number {
  const prefix = counterKey(kind, ...labels);
  let sum = 0;
  for (const [k, v] of Object.entries(c)) if (k === prefix || k.startsWith(prefix + sep)) sum += v;
  return sum;
}

/** The labels after the kind of each counter of that kind (e.g. [topology, topic] for 'out'). */
export function labelsOf(c: Counters, kind: CounterKind): string[][] {
  return Object.keys(c)
    .filter((k) => k.startsWith(kind + sep))
    .map((k) => k.split(sep).slice(1));
}

export function clusterLag(summaries: readonly MetricsSummary[]): number {
  const highest = new Map<string, number>();
  for (const s of summaries)
    for (const l of s.lag) {
      const key = `${l.topic}${sep}${l.partition}`;
      highest.set(key, Math.max(highest.get(key) ?? 0, l.value));
    }
  return [...highest.values()].reduce((a, v) => a + v, 0);
}

export interface ClusterReading {
  /** When the browser took it (ms). */
  readonly time: number;
  /** The nodes read. */
  readonly nodes: number;
  readonly totals: Counters;
  /** Per second since the previous reading, over the nodes read both times; undefined on the first. */
  readonly rates: Counters | undefined;
  readonly lag: number;
}

/** The cluster's reading from this round of summaries and the previous summary of each node. */
export function clusterReading(
  previous: ReadonlyMap<string, MetricsSummary>,
  summaries: readonly MetricsSummary[],
  time: number,
): ClusterReading {
  const paired = summaries.filter((s) => previous.has(s.node));
  return {
    time,
    nodes: summaries.length,
    totals: sumCounters(summaries.map(countersOf)),
    rates: previous.size === 0 ? undefined : sumCounters(paired.map((s) => ratesBetween(previous.get(s.node)!, s))),
    lag: clusterLag(summaries),
  };
}
