import type { AggregationStage, TemporalStage } from './ast.ts';
import { printQuery } from './printer.ts';
import type { Predicate } from './query.ts';
import { compileQuery } from './query.ts';
import type { JsonObject } from './values.ts';
import { asNumber, cloneJson, getPath } from './values.ts';

export interface Window {
  readonly start: number;
  readonly end: number;
}

/**
 * What a correlation stage computes over the events of one group's window. The summary is plain
 * JSON (it lives in the CorrelationStateStore). In sliding mode (emit=event) a function remembers
 * timed entries so it can forget them when they leave the window; in emit=close mode it only keeps
 * running totals.
 */
export interface CorrelationFunction {
  readonly outputKey: '_aggregation' | '_temporal';
  /** What to remember of an event, or undefined when the event does not take part. */
  extract(event: JsonObject): unknown;
  emptySummary(): JsonObject;
  /** Adds an event's value; returns how many remembered items were dropped to respect the limit. */
  add(summary: JsonObject, time: number, value: unknown): number;
  /** Sliding mode: forgets entries older than `cutoff`. */
  expire(summary: JsonObject, cutoff: number): void;
  /** The `_aggregation` / `_temporal` object. */
  build(summary: JsonObject, groupBy: JsonObject, window: Window): JsonObject;
  /** The condition when the stage has no `where`. */
  holds(summary: JsonObject): boolean;
}

type Entry = [number, unknown];

/** Inserts keeping time order; equal times keep arrival order. */
function insertSorted(entries: Entry[], entry: Entry): void {
  const time = entry[0];
  if (entries.length === 0 || (entries[entries.length - 1] as Entry)[0] <= time) {
    entries.push(entry);
    return;
  }
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((entries[mid] as Entry)[0] <= time) lo = mid + 1;
    else hi = mid;
  }
  entries.splice(lo, 0, entry);
}

// ---- aggregations -----------------------------------------------------------------------------

interface AggregationSummary {
  entries: Entry[];
  count: number;
  /**
   * value_count, value_percentile: occurrences per distinct value (or tuple). null while the window
   * holds none; while it holds one, that value as a string, whose occurrences are `count` (most open
   * groups hold one: an object and its count per group would cost ~50 B more,
   * bench/correlation-state.ts); from the second distinct value on, an object of counts, with
   * `distinct` its number of keys. Every form restores from the changelog.
   */
  values: string | Record<string, number> | null;
  distinct?: number;
  sum: number;
  /** value_percentile: the value (its text) of the event added last */
  last?: string;
}

/** Counts one more event of `key`; false when it is a new distinct value beyond `limit` (not counted). Call before `count++`. */
function addValue(s: AggregationSummary, key: string, limit: number): boolean {
  if (s.values === null) {
    s.values = key;
    return true;
  }
  if (typeof s.values === 'string') {
    if (s.values === key) return true;
    s.values = { [s.values]: s.count }; // a second distinct value: from now on an object
    s.distinct = 1;
  }
  const values = s.values;
  if (Object.hasOwn(values, key)) {
    values[key] = (values[key] as number) + 1;
    return true;
  }
  if ((s.distinct ?? 0) >= limit) return false;
  // defineProperty: a value such as "__proto__" is an own key like any other
  Object.defineProperty(values, key, { value: 1, writable: true, enumerable: true, configurable: true });
  s.distinct = (s.distinct ?? 0) + 1;
  return true;
}

/** Counts one event of `key` less (a sliding window forgot it). Call after `count--`. */
function forgetValue(s: AggregationSummary, key: string): void {
  if (s.values === null) return;
  if (typeof s.values === 'string') {
    if (s.count === 0) s.values = null;
    return;
  }
  const n = (s.values[key] ?? 1) - 1;
  if (n === 0) {
    delete s.values[key];
    s.distinct = (s.distinct ?? 1) - 1;
  } else {
    s.values[key] = n;
  }
}

function occurrences(s: AggregationSummary, key: string): number {
  if (s.values === null) return 0;
  if (typeof s.values === 'string') return s.values === key ? s.count : 0;
  return Object.hasOwn(s.values, key) ? (s.values[key] as number) : 0;
}

function distinctValues(s: AggregationSummary): number {
  return s.values === null ? 0 : typeof s.values === 'string' ? 1 : (s.distinct ?? Object.keys(s.values).length);
}

/** The counts per distinct value as a fresh object (the `_aggregation.values` output). */
function valueCounts(s: AggregationSummary): Record<string, number> {
  if (s.values === null) return {};
  if (typeof s.values !== 'string') return { ...s.values };
  return { [s.values]: s.count };
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function aggregationFunction(node: AggregationStage, sliding: boolean, limit: number): CorrelationFunction {
  const paths = node.fields.map((f) => f.path);
  const names = node.fields.map((f) => f.path.join('.'));
  const fn = node.function;
  const first = paths[0] ?? [];

  const extract = (event: JsonObject): unknown => {
    switch (fn) {
      case 'event_count':
        return null;
      case 'value_percentile': {
        const value = getPath(event, first);
        return value === undefined || value === null ? undefined : valueText(value);
      }
      case 'value_count': {
        if (paths.length === 1) {
          const value = getPath(event, first);
          return value === undefined || value === null ? undefined : valueText(value);
        }
        const tuple: unknown[] = [];
        for (const path of paths) {
          const value = getPath(event, path);
          if (value === undefined || value === null) return undefined;
          tuple.push(value);
        }
        return JSON.stringify(tuple);
      }
      default:
        return asNumber(getPath(event, first));
    }
  };

  const forget = (s: AggregationSummary, entry: Entry): void => {
    s.count--;
    if (fn === 'value_count' || fn === 'value_percentile') forgetValue(s, entry[1] as string);
  };

  return {
    outputKey: '_aggregation',
    extract,
    // only what the function reads: open groups are many, so every field counts (bench/correlation-state.ts)
    emptySummary:
      fn === 'event_count'
        ? sliding
          ? () => ({ entries: [], count: 0 })
          : () => ({ count: 0 })
        : fn === 'value_count' || fn === 'value_percentile' // both count events per distinct value
          ? sliding
            ? () => ({ entries: [], count: 0, values: null })
            : () => ({ count: 0, values: null })
          : sliding
            ? () => ({ entries: [], count: 0, sum: 0 })
            : () => ({ count: 0, sum: 0 }),
    add(summary, time, value) {
      const s = summary as unknown as AggregationSummary;
      let evicted = 0;
      if (fn === 'value_percentile') s.last = value as string;
      if (
        (fn === 'value_count' || fn === 'value_percentile') &&
        !addValue(s, value as string, sliding ? Infinity : limit)
      )
        evicted++;
      s.count++;
      if (typeof value === 'number' && fn !== 'event_count' && fn !== 'value_count') s.sum += value;
      if (sliding) {
        insertSorted(s.entries, [time, value]);
        while (s.entries.length > limit) {
          forget(s, s.entries.shift() as Entry);
          evicted++;
        }
      }
      return evicted;
    },
    expire(summary, cutoff) {
      const s = summary as unknown as AggregationSummary;
      while (s.entries.length > 0 && (s.entries[0] as Entry)[0] < cutoff) forget(s, s.entries.shift() as Entry);
    },
    build(summary, groupBy, window) {
      const s = summary as unknown as AggregationSummary;
      const win = { start: window.start, end: window.end };
      switch (fn) {
        case 'event_count':
          return { function: fn, eventCount: s.count, value: s.count, groupBy, window: win };
        case 'value_count':
          return {
            function: fn,
            fields: names,
            valueCount: distinctValues(s),
            value: distinctValues(s),
            eventCount: s.count,
            values: valueCounts(s),
            groupBy,
            window: win,
          };
        case 'value_percentile': {
          // the share, in percent, of the window's events that hold the last event's value
          const last = s.last;
          const n = last === undefined ? 0 : occurrences(s, last);
          const value = s.count === 0 || last === undefined ? null : (100 * n) / s.count;
          return {
            function: fn,
            field: names[0] as string,
            value,
            lastValue: last ?? null,
            valueEventCount: n,
            eventCount: s.count,
            groupBy,
            window: win,
          };
        }
        default: {
          // Sliding sums are recomputed from the entries so that removals leave no rounding drift.
          let sum = s.sum;
          if (sliding) {
            sum = 0;
            for (const entry of s.entries) sum += entry[1] as number;
          }
          const value = fn === 'value_sum' ? sum : s.count === 0 ? null : sum / s.count;
          return { function: fn, field: names[0] as string, value, eventCount: s.count, groupBy, window: win };
        }
      }
    },
    holds: () => true,
  };
}

// ---- temporal ---------------------------------------------------------------------------------

interface TemporalSummary {
  /** Per query, the matching events in time order: [time, event]. */
  lists: Entry[][];
}

interface TemporalValue {
  readonly matched: readonly number[];
  readonly event: JsonObject;
}

export function temporalFunction(node: TemporalStage, limit: number): CorrelationFunction {
  const predicates: Predicate[] = node.queries.map((q) => compileQuery(q.query));
  const keys = node.queries.map((q) => q.label?.value ?? printQuery(q.query));
  const ordered = node.ordered;
  const n = predicates.length;

  /** Ordered: how many queries, from the first, have matching events in non-decreasing time. */
  const chainLength = (lists: Entry[][]): number => {
    let time = -Infinity;
    for (let i = 0; i < n; i++) {
      const list = lists[i] as Entry[];
      let found = false;
      for (const entry of list) {
        if (entry[0] >= time) {
          time = entry[0];
          found = true;
          break;
        }
      }
      if (!found) return i;
    }
    return n;
  };
  const distinctMatched = (lists: Entry[][]): number => lists.reduce((c, list) => c + (list.length > 0 ? 1 : 0), 0);
  const matchedOf = (lists: Entry[][]): number => (ordered ? chainLength(lists) : distinctMatched(lists));

  return {
    outputKey: '_temporal',
    extract(event) {
      let matched: number[] | undefined;
      for (let i = 0; i < n; i++) {
        if ((predicates[i] as Predicate)(event)) (matched ??= []).push(i);
      }
      return matched === undefined ? undefined : ({ matched, event } satisfies TemporalValue);
    },
    emptySummary: () => ({ lists: predicates.map(() => []) }),
    add(summary, time, value) {
      const s = summary as unknown as TemporalSummary;
      const v = value as TemporalValue;
      const copy = cloneJson(v.event);
      let evicted = 0;
      for (const i of v.matched) {
        const list = s.lists[i] as Entry[];
        insertSorted(list, [time, copy]);
        while (list.length > limit) {
          list.shift();
          evicted++;
        }
      }
      return evicted;
    },
    expire(summary, cutoff) {
      for (const list of (summary as unknown as TemporalSummary).lists) {
        while (list.length > 0 && (list[0] as Entry)[0] < cutoff) list.shift();
      }
    },
    build(summary, groupBy, window) {
      const lists = (summary as unknown as TemporalSummary).lists;
      const matches: JsonObject = {};
      for (let i = 0; i < n; i++) {
        Object.defineProperty(matches, keys[i] as string, {
          value: (lists[i] as Entry[]).map((e) => e[1]),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
      return { ordered, matched: matchedOf(lists), matches, groupBy, window: { start: window.start, end: window.end } };
    },
    holds: (summary) => matchedOf((summary as unknown as TemporalSummary).lists) === n,
  };
}
