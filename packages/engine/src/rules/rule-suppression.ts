import { createHash } from 'node:crypto';
import { suppressionWindowMs, type AlertMetadata } from '@weir/contract';
import { cloneJson, type CorrelationGroupState, type CorrelationStateStore, type StageClock } from '@weir/pdl';

type JsonObject = Record<string, unknown>;

/** A rule's `suppression` as stored (@weir/contract suppressionSchema). */
export interface SuppressionSpec {
  readonly fields: readonly string[];
  readonly window: string;
}

export type AlertSuppression = NonNullable<AlertMetadata['suppression']>;
export type AlertSourceRef = NonNullable<AlertMetadata['source']>;

/**
 * What the alerts-topic record of a suppressed rule's alert carries instead of what
 * stream/process/alert-record.ts derives: the id of its suppression window, its source when the
 * record is written after the fact (undefined: the record at hand's), and `_alert.suppression`.
 */
export interface AlertOverride {
  readonly id: string;
  readonly source?: AlertSourceRef | null;
  readonly suppression: AlertSuppression;
}

/** An alert to write: its value (the rule's alert, `_rule` included), record timestamp and `_alert` override. */
export interface SuppressionRecord {
  readonly value: JsonObject;
  readonly timestamp: number;
  readonly override: AlertOverride;
}

/**
 * One alert offered to the suppression. `alert` is absent for an alert that travelled without it in
 * a bundle (stream/process/route-bundles.ts): one that cannot open its window, become its
 * representative or be written at once other than as its window's lead (whose alert the window keeps).
 */
export interface OfferedAlert {
  readonly alert?: JsonObject | undefined;
  /** Its key (`keyOf` its alert), when the alert is absent. */
  readonly values?: string | undefined;
  /** Event time (the alert's `_time`, else its record timestamp). */
  readonly time: number;
  readonly timestamp: number;
  /** The input record it came from (absent for an alert an idle correlation window emitted). */
  readonly source?: AlertSourceRef | undefined;
}

/**
 * What an offer did: `kept` (the first alert of its window, or the first again when its input record
 * is read again: write `record` now; `late` when the window opened after stream time had passed its
 * close, e.g. a replay), `suppressed` (counted on its window) or `duplicate` (an input record of the
 * window read again: not counted twice). `updates`: the update records of the windows that closed.
 */
export type Offer =
  | {
      readonly kind: 'kept';
      readonly record: SuppressionRecord;
      readonly late: boolean;
      readonly updates: SuppressionRecord[];
    }
  | { readonly kind: 'suppressed' | 'duplicate'; readonly updates: SuppressionRecord[] };

/** What a window keeps (the `summary` of its CorrelationGroupState, plain JSON for the changelog). */
interface WindowSummary {
  id: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** Stream time at which it closes: one window after its end, or after it opened when that was later. */
  closeAt: number;
  /** The representative: the window's earliest alert (event time, then source, then JSON text). */
  alert: JsonObject;
  /**
   * A window opened late only: the lead's alert, once the representative is another. Its lead's
   * input record read again may come without its alert (route-bundles.ts: only in such a window,
   * behind an alert of an older one), and is written again as it was.
   */
  leadAlert?: JsonObject;
  time: number;
  timestamp: number;
  source: AlertSourceRef | null;
  /** The input record of the alert written at once, and its time. */
  lead: AlertSourceRef | null;
  leadTime: number;
  /** Per input partition (`topic/partition`), the highest offset counted: an alert from at or below it is one already counted. */
  seen: Record<string, number>;
}

/**
 * Alert suppression of one rule (docs/alerts.md, "Suppression"), on the partitioned,
 * changelog-backed correlation state (scope `rule:<id>#suppression`, one group per field values
 * and window). Windows are aligned to the epoch: an alert at event time t is in
 * `[t - t mod w, t - t mod w + w)`, whatever came before it. The first alert of a window to arrive
 * is kept (written at once); the others are counted, each input record once. A window closes when
 * the stream time of its partition (the newest alert time it has seen, or moved on by the idle
 * close) reaches its end plus one window (the lateness it allows; a window opened later than that,
 * one window after it opened); then, when it suppressed any, one update record is written: its
 * earliest alert with the count. Ids are the window's (rule id, field values, start), so the record
 * written at once and the update share one id, whichever alert arrived first.
 */
export class RuleSuppression {
  readonly ruleId: string;
  readonly fields: readonly string[];
  readonly windowMs: number;
  /** The fields and the window length, as one text: alerts routed under one spec are bundled and resumed under it. */
  readonly spec: string;
  readonly #paths: readonly (readonly string[])[];
  readonly #store: CorrelationStateStore;
  readonly #scope: string;

  constructor(ruleId: string, spec: SuppressionSpec, store: CorrelationStateStore) {
    this.ruleId = ruleId;
    this.fields = [...spec.fields];
    this.windowMs = suppressionWindowMs(spec.window);
    this.spec = `${JSON.stringify(this.fields)}/${this.windowMs}`;
    this.#paths = spec.fields.map((f) => f.split('.'));
    this.#store = store;
    this.#scope = `rule:${ruleId}#suppression`;
  }

  /** The key of an alert: JSON of its values of the fields (a missing one is null). Also its repartition key. */
  keyOf(alert: JsonObject): string {
    return JSON.stringify(this.#paths.map((path) => valueAt(alert, path)));
  }

  /** The window of an alert at `time` with key `values`: its state key and the stream time before which it cannot close. */
  windowOf(values: string, time: number): { readonly key: string; readonly closeFloor: number } {
    const w = this.windowMs;
    const start = time - mod(time, w);
    return { key: `${values}@${start}`, closeFloor: start + w + w };
  }

  /**
   * Offers an alert (on the partition of its key: the store has it selected). Throws for an alert
   * that came without its alert (`alert` absent) when it would need it: only a bundle made wrongly does that.
   */
  offer(offered: OfferedAlert): Offer {
    const clock = this.#store.clock(this.#scope);
    const { time } = offered;
    const w = this.windowMs;
    const start = time - mod(time, w);
    const values = offered.alert ? this.keyOf(offered.alert) : offered.values;
    if (values === undefined) throw new Error('an alert offered without its alert and key');
    const key = `${values}@${start}`;
    if (!offered.alert) this.#checkWithout(offered, key, Math.max(clock.time, time));
    if (time > clock.time) clock.time = time;
    const updates = this.#closeDue(clock);
    const state = this.#store.get(this.#scope, key);
    const source = offered.source ?? null;
    if (state !== undefined) {
      const s = state.summary as unknown as WindowSummary;
      if (source !== null && sameSource(source, s.lead)) {
        // the lead read again: written again as it was (without its alert: the copy the window keeps)
        const alert = offered.alert ?? (cloneJson(s.leadAlert ?? s.alert) as JsonObject);
        return { kind: 'kept', record: this.#kept(state, s, alert, offered.timestamp), late: false, updates };
      }
      const at = source === null ? undefined : s.seen[`${source.topic}/${source.partition}`];
      if (source !== null && at !== undefined && source.offset <= at) return { kind: 'duplicate', updates };
      if (source !== null) s.seen[`${source.topic}/${source.partition}`] = source.offset;
      s.count++;
      if (time < s.firstSeen) s.firstSeen = time;
      if (time > s.lastSeen) s.lastSeen = time;
      if (earlier(offered, s) && offered.alert) {
        if (s.closeAt >= start + 3 * w) s.leadAlert ??= s.alert; // opened late
        s.alert = cloneJson(offered.alert) as JsonObject;
        s.time = time;
        s.timestamp = offered.timestamp;
        s.source = source;
      }
      state.maxTime = s.lastSeen;
      this.#store.set(this.#scope, key, state);
      return { kind: 'suppressed', updates };
    }
    if (!offered.alert) throw new Error(`no alert to open window ${key} with`); // #checkWithout threw already
    const late = clock.time >= start + w + w;
    const summary: WindowSummary = {
      id: suppressionId(this.ruleId, values, start),
      count: 0,
      firstSeen: time,
      lastSeen: time,
      closeAt: Math.max(start + w, clock.time) + w,
      // a copy: the alert written at once goes on through the pipeline, whose later tasks may change it
      alert: cloneJson(offered.alert) as JsonObject,
      time,
      timestamp: offered.timestamp,
      source,
      lead: source,
      leadTime: time,
      seen: source === null ? {} : { [`${source.topic}/${source.partition}`]: source.offset },
    };
    const opened: CorrelationGroupState = {
      open: true,
      start,
      end: start + w,
      maxTime: time,
      suppressedUntil: 0,
      summary: summary as unknown as JsonObject,
    };
    this.#store.set(this.#scope, key, opened);
    if (summary.closeAt < clock.nextClose) clock.nextClose = summary.closeAt;
    return { kind: 'kept', record: this.#kept(opened, summary, offered.alert, offered.timestamp), late, updates };
  }

  /** Throws, changing nothing, when an alert offered without its alert would need it: its window is not open at `now`, or it precedes the window's representative. */
  #checkWithout(offered: OfferedAlert, key: string, now: number): void {
    const state = this.#store.get(this.#scope, key);
    const s = state?.summary as unknown as WindowSummary | undefined;
    const source = offered.source ?? null;
    if (s === undefined || s.closeAt <= now)
      throw new Error(`an alert came without its alert to window ${key}, which is not open`);
    if (source !== null && sameSource(source, s.lead)) {
      if (s.leadAlert === undefined && !sameSource(source, s.source))
        throw new Error(`the lead of window ${key} came without its alert, which the window does not keep`);
      return;
    }
    const at = source === null ? undefined : s.seen[`${source.topic}/${source.partition}`];
    if (source !== null && at !== undefined && source.offset <= at) return;
    if (earlier(offered, s)) throw new Error(`an alert came without its alert but precedes window ${key}'s`);
  }

  /** The idle close: stream time moves on by `elapsedMs` (nothing before the first alert); the update records of the windows it closes. */
  advanceBy(elapsedMs: number): SuppressionRecord[] {
    const clock = this.#store.clock(this.#scope);
    if (clock.time === -Infinity) return [];
    clock.time += elapsedMs;
    return this.#closeDue(clock);
  }

  /** Closes the windows whose close the stream time reached (their state is dropped), in the order of their ends, then keys. */
  #closeDue(clock: StageClock): SuppressionRecord[] {
    if (clock.time < clock.nextClose) return [];
    const due: [string, CorrelationGroupState][] = [];
    let next = Infinity;
    for (const [key, state] of this.#store.entries(this.#scope)) {
      const closeAt = (state.summary as unknown as WindowSummary).closeAt;
      if (closeAt <= clock.time) due.push([key, state]);
      else if (closeAt < next) next = closeAt;
    }
    clock.nextClose = next;
    due.sort((a, b) => a[1].end - b[1].end || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const updates: SuppressionRecord[] = [];
    for (const [key, state] of due) {
      this.#store.delete(this.#scope, key);
      const s = state.summary as unknown as WindowSummary;
      if (s.count === 0) continue;
      updates.push({
        value: s.alert,
        timestamp: s.timestamp,
        override: {
          id: s.id,
          source: s.source,
          suppression: this.#suppressionOf(state, s.alert, s.count, s.firstSeen, s.lastSeen),
        },
      });
    }
    return updates;
  }

  /** The record written at once: the alert as it came, nothing counted yet. */
  #kept(state: CorrelationGroupState, s: WindowSummary, alert: JsonObject, timestamp: number): SuppressionRecord {
    return {
      value: alert,
      timestamp,
      override: { id: s.id, suppression: this.#suppressionOf(state, alert, 0, s.leadTime, s.leadTime) },
    };
  }

  #suppressionOf(
    state: CorrelationGroupState,
    alert: JsonObject,
    count: number,
    firstSeen: number,
    lastSeen: number,
  ): AlertSuppression {
    const fields: Record<string, unknown> = {};
    for (let i = 0; i < this.fields.length; i++) {
      Object.defineProperty(fields, this.fields[i] as string, {
        value: valueAt(alert, this.#paths[i] as readonly string[]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { count, firstSeen, lastSeen, fields, window: { start: state.start, end: state.end } };
  }
}

function sameSource(a: AlertSourceRef, b: AlertSourceRef | null): boolean {
  return b !== null && a.offset === b.offset && a.partition === b.partition && a.topic === b.topic;
}

/** The id of a suppression window's alert: SHA-256 (32 hex digits) of the rule id, the field values and the window start. */
export function suppressionId(ruleId: string, key: string, start: number): string {
  return createHash('sha256').update(`${ruleId}\u0000suppression\u0000${key}\u0000${start}`).digest('hex').slice(0, 32);
}

/** A field's value (own properties, dots for nesting); null when missing. */
function valueAt(event: JsonObject, path: readonly string[]): unknown {
  let current: unknown = event;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return null;
    if (!Object.hasOwn(current, segment)) return null;
    current = (current as JsonObject)[segment];
  }
  return current === undefined ? null : current;
}

function mod(t: number, w: number): number {
  return ((t % w) + w) % w;
}

/** Whether `a` precedes the window's representative: event time, then source (topic, partition, offset), then JSON text. */
function earlier(a: OfferedAlert, s: WindowSummary): boolean {
  if (a.time !== s.time) return a.time < s.time;
  const sa = a.source;
  const sb = s.source;
  if (sa && sb) {
    if (sa.topic !== sb.topic) return sa.topic < sb.topic;
    if (sa.partition !== sb.partition) return sa.partition < sb.partition;
    if (sa.offset !== sb.offset) return sa.offset < sb.offset;
  } else if (sa || sb) return sa !== undefined;
  return JSON.stringify(a.alert) < JSON.stringify(s.alert);
}
