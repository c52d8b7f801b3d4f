import { isCanonicalNumeral, RuleIndex } from '@weir/pdl';
import type { EventPosition } from './backtest-events.ts';
import type { BacktestRule } from './backtest-rules.ts';

/**
 * Where a match was raised: at an event (a line or element of the file; through a server, the
 * partition and offset of its record in the topic), or at the end (a correlation window it closed).
 */
export type MatchPosition =
  EventPosition | { readonly partition: number; readonly offset: number } | { readonly end: true };

/** One rule's outcome over the events. */
export interface RuleOutcome {
  readonly id: string;
  readonly where: string;
  readonly source: BacktestRule['source'];
  /** False: the rule is disabled in its manifest and was not run (as the engine skips it). */
  readonly enabled: boolean;
  readonly matches: number;
  /** The positions of the first matches (at most `first` of them), in order. */
  readonly first: MatchPosition[];
  /** Events the rule could not evaluate (PDL's counter; such an event does not match). */
  readonly evaluationErrors: number;
  /** Events a correlation dropped because their time was before its window (PDL's counter). */
  readonly lateEvents: number;
}

export interface BacktestResult {
  readonly events: number;
  readonly rules: RuleOutcome[];
}

/** The end of the file: closes every open correlation window (as `POST /api/test/pdl` with an array does). */
const endOfTime = Number.MAX_SAFE_INTEGER;

function ownTime(event: Record<string, unknown>): number | undefined {
  const t = event['_time'];
  if (typeof t === 'number') return Number.isFinite(t) ? t : undefined;
  if (typeof t === 'string' && isCanonicalNumeral(t)) return Number(t);
  return undefined;
}

/**
 * Runs rules over events in process, in file order, as APPLY_RULES does with `matchAll` (every
 * rule sees every event; RuleIndex picks the rules an event may match). Event time is the event's
 * `_time` (epoch ms) as in the engine; an event without one takes the stream time so far (the
 * latest `_time` before it, 0 before any), so the run is deterministic. Call `event` per event,
 * then `finish` once: the end of the file closes every open correlation window.
 */
export class Backtest {
  readonly #rules: readonly BacktestRule[];
  readonly #index: RuleIndex;
  readonly #counts: number[];
  readonly #first: MatchPosition[][];
  readonly #limit: number;
  #events = 0;
  #streamTime = 0;

  constructor(rules: readonly BacktestRule[], first: number) {
    this.#rules = rules;
    this.#limit = first;
    // a disabled rule is never a candidate (its counts stay 0)
    this.#index = new RuleIndex(rules.map((r) => (r.enabled ? r.compiled : 'never')));
    this.#counts = rules.map(() => 0);
    this.#first = rules.map(() => []);
  }

  #record(i: number, n: number, position: MatchPosition): void {
    this.#counts[i]! += n;
    const first = this.#first[i]!;
    for (let k = 0; k < n && first.length < this.#limit; k++) first.push(position);
  }

  event(event: Record<string, unknown>, position: EventPosition): void {
    this.#events++;
    const own = ownTime(event);
    if (own !== undefined && own > this.#streamTime) this.#streamTime = own;
    const context = { timestamp: this.#streamTime };
    const count = this.#index.select(event);
    const selected = this.#index.selected;
    for (let c = 0; c < count; c++) {
      const i = selected[c]!;
      const rule = this.#rules[i]!;
      const compiled = rule.compiled;
      if (compiled.hasCorrelation) {
        const n = compiled.feed(event, context).length;
        if (n > 0) this.#record(i, n, position);
      } else if (compiled.run(event, context) !== null) this.#record(i, 1, position);
    }
  }

  finish(): BacktestResult {
    const end = { end: true } as const;
    this.#rules.forEach((rule, i) => {
      if (!rule.enabled || !rule.compiled.hasCorrelation) return;
      const n = rule.compiled.advanceTime(endOfTime).length;
      if (n > 0) this.#record(i, n, end);
    });
    return {
      events: this.#events,
      rules: this.#rules.map((r, i) => ({
        id: r.id,
        where: r.where,
        source: r.source,
        enabled: r.enabled,
        matches: this.#counts[i]!,
        first: this.#first[i]!,
        evaluationErrors: r.compiled.counters.evaluationErrors,
        lateEvents: r.compiled.counters.lateEvents,
      })),
    };
  }
}
