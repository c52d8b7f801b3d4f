import type { CorrelationOptions } from './ast.ts';
import type { CorrelationFunction, Window } from './correlationFunctions.ts';
import type { PdlLimits } from './limits.ts';
import { durationMs } from './parser.ts';
import type { Predicate } from './query.ts';
import { compileQuery } from './query.ts';
import type { CorrelationGroupState, CorrelationStateStore, StageClock } from './stateStore.ts';
import type { OutputNames } from './outputNames.ts';
import { originalAggregation, originalTemporal, outputKeys } from './outputNames.ts';
import type { JsonObject } from './values.ts';
import { getPath, setPath } from './values.ts';

/** Counters of a compiled program (pdl.md, "state per stage is bounded ... counted in a metric"). */
export interface PdlCounters {
  /** Events older than the window of their group, ignored. */
  lateEvents: number;
  /** Groups dropped because a stage held `maxGroups` groups. */
  evictedGroups: number;
  /** Events or values dropped because a group held `maxEventsPerGroup` of them. */
  evictedEvents: number;
  /** Events on which a stage failed unexpectedly (dropped instead of throwing). */
  evaluationErrors: number;
}

/**
 * The window logic shared by every correlation stage (pdl.md, "Window semantics").
 * emit=event: a sliding window per group ending at the group's newest event.
 * emit=close: a window [t0, t0 + timespan] per group, evaluated once when the stage's stream time
 * (the newest event time it has seen, or advanceTime) minus the allowed lateness passes its end.
 * Time never comes from the wall clock here: the same events give the same outputs whenever they
 * are replayed. The stream time lives in the store (`clock`), so it is per partition in the engine.
 */
export class CorrelationRuntime {
  readonly #fn: CorrelationFunction;
  readonly #store: CorrelationStateStore;
  readonly #scope: string;
  readonly #limits: PdlLimits;
  readonly #counters: PdlCounters;
  readonly #timespan: number;
  readonly #suppress: number;
  readonly #close: boolean;
  readonly #reset: boolean;
  readonly #where: Predicate | null;
  readonly #groupPaths: readonly (readonly string[])[];
  readonly #groupNames: readonly string[];
  /** Where the stage's output goes: `_aggregation`/`_temporal`, or the original's `padasAggregation`/`padasTemporal`. */
  readonly #key: string;
  readonly #original: boolean;
  readonly #toOriginal: (weir: JsonObject) => JsonObject;
  /** The key of the other naming, when the `where` names it (it sees both namings). */
  readonly #otherKey: string | null;
  /** The `where` names fields that are not in the output: it sees the completing event's fields too. */
  readonly #whereSeesEvent: boolean;

  constructor(
    options: CorrelationOptions,
    fn: CorrelationFunction,
    store: CorrelationStateStore,
    scope: string,
    limits: PdlLimits,
    counters: PdlCounters,
    names: OutputNames = 'weir',
  ) {
    this.#fn = fn;
    this.#store = store;
    this.#scope = scope;
    this.#limits = limits;
    this.#counters = counters;
    this.#timespan = durationMs(options.timespan);
    this.#suppress = options.suppress === null ? 0 : durationMs(options.suppress);
    this.#close = options.emit === 'close';
    this.#reset = options.reset;
    this.#where = options.where === null ? null : compileQuery(options.where);
    this.#groupPaths = options.groupBy.map((f) => f.path);
    this.#groupNames = options.groupBy.map((f) => f.path.join('.'));
    const kind = fn.outputKey === '_aggregation' ? 'aggregation' : 'temporal';
    this.#original = names === 'original';
    this.#key = outputKeys[names][kind];
    this.#toOriginal = kind === 'aggregation' ? originalAggregation : originalTemporal;
    const roots = new Set<string>();
    if (options.where !== null) fieldRoots(options.where, roots);
    const other = outputKeys[this.#original ? 'weir' : 'original'][kind];
    this.#otherKey = roots.has(other) ? other : null;
    const known = new Set(['_time', this.#key, other, ...options.groupBy.map((f) => f.path[0] as string)]);
    this.#whereSeesEvent = [...roots].some((r) => !known.has(r));
  }

  /** Feeds one event at `time`; emitted events are appended to `out`. */
  process(event: JsonObject, time: number, out: JsonObject[]): void {
    const clock = this.#store.clock(this.#scope);
    if (time > clock.time) {
      if (clock.sweptAt === -Infinity) clock.sweptAt = time;
      clock.time = time;
    }
    const closeLimit = clock.time - this.#limits.allowedLatenessMs;
    if (this.#close && closeLimit > clock.nextClose) this.#closeDue(clock, closeLimit, out);
    else if (!this.#close && clock.time - clock.sweptAt > this.#timespan) this.#sweep(clock, closeLimit);
    const value = this.#fn.extract(event);
    if (value === undefined) return;
    const groupValues: unknown[] = [];
    for (const path of this.#groupPaths) {
      const v = getPath(event, path);
      groupValues.push(v === undefined ? null : v);
    }
    const key = JSON.stringify(groupValues);
    let state = this.#store.get(this.#scope, key);
    const span = this.#timespan;
    if (state !== undefined && state.open) {
      if (this.#close ? time < state.start : time < state.maxTime - span) {
        this.#counters.lateEvents++;
        return;
      }
    } else {
      // a new window wholly behind stream time (minus the allowed lateness): a late event, as Kafka Streams drops it
      if (time + span < closeLimit) {
        this.#counters.lateEvents++;
        return;
      }
      if (state === undefined) {
        this.#makeRoom(clock);
        state = { open: false, start: 0, end: 0, maxTime: time, suppressedUntil: 0, summary: {} };
      }
      state.open = true;
      state.start = time;
      state.end = time + span;
      state.maxTime = time;
      state.summary = this.#fn.emptySummary();
      if (this.#close && state.end < clock.nextClose) clock.nextClose = state.end;
    }
    if (time > state.maxTime) state.maxTime = time;
    this.#counters.evictedEvents += this.#fn.add(state.summary, time, value);
    if (this.#close) {
      this.#store.set(this.#scope, key, state);
      return;
    }
    this.#fn.expire(state.summary, state.maxTime - span);
    state.start = state.maxTime - span;
    state.end = state.maxTime;
    this.#evaluate(key, state, groupValues, time, out, event);
  }

  /** The group key of an event (JSON of its group_by values), as `process` computes it: where the engine routes it. */
  keyOf(event: JsonObject): string {
    const groupValues: unknown[] = [];
    for (const path of this.#groupPaths) {
      const v = getPath(event, path);
      groupValues.push(v === undefined ? null : v);
    }
    return JSON.stringify(groupValues);
  }

  /** Advances stream time to `now - allowedLateness` (never back): closes emit=close windows ended before it, forgets idle groups. */
  flush(now: number, out: JsonObject[]): void {
    this.#advanceTo(now - this.#limits.allowedLatenessMs, out);
  }

  /**
   * Advances stream time by `elapsedMs` from where it is (an idle stream whose wall clock moved on,
   * when the engine is asked to close idle windows). Nothing happens before the first event.
   */
  advanceBy(elapsedMs: number, out: JsonObject[]): void {
    const clock = this.#store.clock(this.#scope);
    if (clock.time === -Infinity) return;
    clock.time += elapsedMs;
    this.#advanceTo(clock.time - this.#limits.allowedLatenessMs, out);
  }

  #advanceTo(limit: number, out: JsonObject[]): void {
    const clock = this.#store.clock(this.#scope);
    if (limit + this.#limits.allowedLatenessMs > clock.time) clock.time = limit + this.#limits.allowedLatenessMs;
    if (this.#close) this.#closeDue(clock, limit, out);
    else this.#sweep(clock, limit);
  }

  /** Forgets emit=event groups whose window lies wholly before `limit` and that carry no running suppression. */
  #sweep(clock: StageClock, limit: number): void {
    clock.sweptAt = clock.time;
    const idle: string[] = [];
    for (const [key, state] of this.#store.entries(this.#scope)) {
      if ((!state.open || state.maxTime < limit - this.#timespan) && state.suppressedUntil <= limit) idle.push(key);
    }
    for (const key of idle) this.#store.delete(this.#scope, key);
  }

  #closeDue(clock: StageClock, limit: number, out: JsonObject[]): void {
    const due: [string, CorrelationGroupState][] = [];
    const idle: string[] = [];
    let next = Infinity;
    for (const [key, state] of this.#store.entries(this.#scope)) {
      if (state.open) {
        if (state.end < limit) due.push([key, state]);
        else if (state.end < next) next = state.end;
      } else if (state.suppressedUntil <= limit) {
        idle.push(key);
      }
    }
    clock.nextClose = next;
    for (const key of idle) this.#store.delete(this.#scope, key);
    due.sort((a, b) => a[1].end - b[1].end);
    for (const [key, state] of due) {
      const groupValues = this.#groupPaths.map((_p, i) => this.#groupValueOf(key, i));
      this.#evaluate(key, state, groupValues, state.maxTime, out, null);
    }
  }

  #groupValueOf(key: string, index: number): unknown {
    return (JSON.parse(key) as unknown[])[index] ?? null;
  }

  /** Builds the event the stage would emit, checks the condition, emits, resets and suppresses. */
  #evaluate(
    key: string,
    state: CorrelationGroupState,
    groupValues: readonly unknown[],
    time: number,
    out: JsonObject[],
    event: JsonObject | null,
  ): void {
    const groupBy: JsonObject = {};
    const output: JsonObject = {};
    for (let i = 0; i < groupValues.length; i++) {
      const name = this.#groupNames[i] as string;
      Object.defineProperty(groupBy, name, {
        value: groupValues[i],
        writable: true,
        enumerable: true,
        configurable: true,
      });
      setPath(output, this.#groupPaths[i] as readonly string[], groupValues[i]);
    }
    output['_time'] = time;
    const window: Window = { start: state.start, end: state.end };
    const built = this.#fn.build(state.summary, groupBy, window);
    output[this.#key] = this.#original ? this.#toOriginal(built) : built;
    const holds =
      this.#where === null ? this.#fn.holds(state.summary) : this.#where(this.#whereView(output, built, event));
    if (holds) {
      if (time >= state.suppressedUntil) {
        out.push(output);
        if (this.#suppress > 0) state.suppressedUntil = time + this.#suppress;
      }
      if (this.#reset || this.#close) this.#closeWindow(state);
    } else if (this.#close) {
      this.#closeWindow(state);
    }
    if (!state.open && state.suppressedUntil <= time) this.#store.delete(this.#scope, key);
    else this.#store.set(this.#scope, key, state);
  }

  /** What the `where` sees: the output, under the completing event's fields and with the other naming when it names them. */
  #whereView(output: JsonObject, built: JsonObject, event: JsonObject | null): JsonObject {
    if (!this.#whereSeesEvent && this.#otherKey === null) return output;
    const view: JsonObject = this.#whereSeesEvent && event !== null ? { ...event, ...output } : { ...output };
    if (this.#otherKey !== null) view[this.#otherKey] = this.#original ? built : this.#toOriginal(built);
    return view;
  }

  #closeWindow(state: CorrelationGroupState): void {
    state.open = false;
    state.summary = {};
  }

  /** Before adding a group: drop idle groups, then the least recently used ones, to stay under maxGroups. */
  #makeRoom(clock: StageClock): void {
    const max = this.#limits.maxGroups;
    if (this.#store.size(this.#scope) < max) return;
    const idle: string[] = [];
    const oldest: string[] = [];
    const excess = this.#store.size(this.#scope) - max + 1;
    for (const [key, state] of this.#store.entries(this.#scope)) {
      const expired = this.#close ? false : state.maxTime < clock.time - this.#timespan;
      if ((!state.open || expired) && state.suppressedUntil <= clock.time) idle.push(key);
      else if (oldest.length < excess) oldest.push(key);
    }
    for (const key of idle) this.#store.delete(this.#scope, key);
    let remaining = this.#store.size(this.#scope) - max + 1;
    for (const key of oldest) {
      if (remaining <= 0) break;
      this.#store.delete(this.#scope, key);
      this.#counters.evictedGroups++;
      remaining--;
    }
  }
}

/** The first segments of the field paths a query names. */
function fieldRoots(node: unknown, roots: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) fieldRoots(item, roots);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const n = node as { kind?: unknown; path?: unknown };
  if (n.kind === 'Field' && Array.isArray(n.path)) {
    roots.add(n.path[0] as string);
    return;
  }
  for (const value of Object.values(node)) fieldRoots(value, roots);
}
