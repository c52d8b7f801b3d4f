import type { AggregationStage, CorrelationStage, Pipeline, Stage, TemporalStage } from './ast.ts';
import type { CompiledPdl, CompileOptions } from './compiler.ts';
import { compile } from './compiler.ts';
import type { CorrelationFunction } from './correlationFunctions.ts';
import { aggregationFunction, temporalFunction } from './correlationFunctions.ts';
import type { ConditionExplanation } from './explainQuery.ts';
import { explainQuery } from './explainQuery.ts';
import { resolveLimits } from './limits.ts';
import { parse } from './parser.ts';
import { print, printQuery } from './printer.ts';
import { InMemoryCorrelationStateStore } from './stateStore.ts';
import type { CorrelationGroupState } from './stateStore.ts';
import type { JsonObject } from './values.ts';
import { isObject } from './values.ts';

export type { ConditionExplanation, FieldSeen } from './explainQuery.ts';

export type ExplainOptions = Pick<CompileOptions, 'lookups' | 'limits' | 'outputNames'> & {
  /** The record timestamp of each event without `_time`, and the clock of now(); default Date.now. */
  readonly now?: () => number;
};

/** A query stage: the tree with a truth value per node. */
export interface QueryStageTrace {
  readonly stage: number;
  readonly kind: 'QueryStage';
  readonly pdl: string;
  readonly passed: boolean;
  readonly condition: ConditionExplanation;
}

/** A transform (eval, rename, lookup, rex...): passed unless it dropped the event. */
export interface TransformStageTrace {
  readonly stage: number;
  readonly kind: Exclude<Stage['kind'], 'QueryStage' | CorrelationStage['kind']>;
  readonly pdl: string;
  readonly passed: boolean;
}

/** The group of a correlation stage: its key (JSON of the group_by values) and those values by field. */
export interface GroupRef {
  readonly key: string;
  readonly values: Readonly<Record<string, unknown>>;
}

/** A correlation stage as one event reached it. */
export interface CorrelationStageTrace {
  readonly stage: number;
  readonly kind: CorrelationStage['kind'];
  readonly pdl: string;
  readonly group: GroupRef;
  /** Whether the event took part in its group's window (false: a value it lacked, no temporal query held, or late). */
  readonly counted: boolean;
  /** Older than its group's window or behind the stage's stream time: ignored, as live. */
  readonly late: boolean;
  /** Whether the group emitted on this event. */
  readonly fired: boolean;
  /** The same as `fired`: whether anything came out of the stage for this event. */
  readonly passed: boolean;
  /** The group's window after the event, and what the stage computed over it (null: no open window). */
  readonly window: { readonly start: number; readonly end: number } | null;
  readonly state: JsonObject | null;
  /** Temporal stages: each query's tree on this event. */
  readonly queries?: readonly { readonly label: string; readonly condition: ConditionExplanation }[];
}

export type StageTrace = QueryStageTrace | TransformStageTrace | CorrelationStageTrace;

export interface EventTrace {
  /** The event's place in the input (0 for a single event). */
  readonly index: number;
  /** The stages the event went through, in order, up to the one it stopped at. */
  readonly stages: readonly StageTrace[];
  /** The stage after which nothing came out for this event (null: it produced output). */
  readonly stoppedAt: number | null;
  /** How many outputs the rule gave on this event. */
  readonly outputs: number;
}

/** What a correlation stage emitted, and how that output went through the stages after it. */
export interface EmissionTrace {
  readonly group: GroupRef;
  /** The input event whose arrival emitted it; null: the end of the sample closed its window. */
  readonly atEvent: number | null;
  readonly window: { readonly start: number; readonly end: number };
  readonly state: JsonObject;
  readonly stages: readonly StageTrace[];
  readonly stoppedAt: number | null;
}

export interface CorrelationTrace {
  readonly stage: number;
  readonly kind: CorrelationStage['kind'];
  readonly pdl: string;
  readonly emissions: readonly EmissionTrace[];
  /** The groups with an open window at the end of the sample, before it closed them. */
  readonly openGroups: readonly {
    readonly group: GroupRef;
    readonly window: { start: number; end: number };
    readonly state: JsonObject;
  }[];
}

export interface Explanation {
  /** The verdict: whether the rule gave any output (what the compiled rule gives). */
  readonly matched: boolean;
  /** The outputs, as the compiled rule gives them (the test endpoint's `result`). */
  readonly outputs: readonly JsonObject[];
  readonly events: readonly EventTrace[];
  /** The first correlation stage, when the rule has one. */
  readonly correlation?: CorrelationTrace;
}

/**
 * Explains a rule on an event or on a sample of events, with the compiled rule's semantics: one
 * event is run as `run` does (POST /api/test/pdl with one event); an array is fed in order with
 * state kept across events and the end of the sample closing open emit=close windows (the same
 * endpoint with an array). Throws PdlSyntaxError as `compile` does.
 */
export function explain(source: string | Pipeline, input: unknown, options: ExplainOptions = {}): Explanation {
  const limits = resolveLimits(options.limits);
  const ast = typeof source === 'string' ? parse(source, { limits }) : source;
  return new Explainer(ast, options).explain(input);
}

/** Records which groups a feed touched. */
class WatchedStore extends InMemoryCorrelationStateStore {
  readonly touched = new Set<string>();
  override set(scope: string, key: string, state: CorrelationGroupState): void {
    this.touched.add(key);
    super.set(scope, key, state);
  }
  override delete(scope: string, key: string): void {
    this.touched.add(key);
    super.delete(scope, key);
  }
}

const SCOPE = 'explain';

class Explainer {
  readonly #ast: Pipeline;
  readonly #now: () => number;
  /** The whole rule: the verdict and the outputs. */
  readonly #program: CompiledPdl;
  /** Each transform stage compiled alone. */
  readonly #transforms = new Map<number, CompiledPdl>();
  readonly #correlationIndex: number;
  /** The stages up to the first correlation stage, with a store that can be read. */
  readonly #prefix: CompiledPdl | null = null;
  readonly #store = new WatchedStore();
  readonly #fn: CorrelationFunction | null = null;

  constructor(ast: Pipeline, options: ExplainOptions) {
    this.#ast = ast;
    this.#now = options.now ?? Date.now;
    const compileOptions: CompileOptions = { ...options, now: this.#now };
    this.#program = compile(ast, compileOptions);
    this.#correlationIndex = ast.stages.findIndex((s) => s.kind === 'AggregationStage' || s.kind === 'TemporalStage');
    ast.stages.forEach((stage, i) => {
      if (stage.kind === 'QueryStage' || stage.kind === 'AggregationStage' || stage.kind === 'TemporalStage') return;
      this.#transforms.set(i, compile({ kind: 'Pipeline', stages: [stage], span: ast.span }, compileOptions));
    });
    const c = this.#correlationIndex;
    if (c >= 0) {
      const stages = ast.stages.slice(0, c + 1);
      this.#prefix = compile(
        { kind: 'Pipeline', stages, span: ast.span },
        { ...compileOptions, stateStore: this.#store, stateId: SCOPE, outputNames: 'weir' },
      );
      const stage = ast.stages[c] as CorrelationStage;
      const max = resolveLimits(options.limits).maxEventsPerGroup;
      this.#fn =
        stage.kind === 'AggregationStage'
          ? aggregationFunction(stage, stage.options.emit === 'event', max)
          : temporalFunction(stage, max);
    }
  }

  explain(input: unknown): Explanation {
    const sample = Array.isArray(input);
    const events: readonly unknown[] = sample ? input : [input];
    const outputs: JsonObject[] = [];
    const traces: EventTrace[] = [];
    const emissions: EmissionTrace[] = [];
    events.forEach((event, index) => {
      const timestamp = this.#now();
      const out = sample
        ? this.#program.feed(event, { timestamp })
        : ((r) => (r === null ? [] : [r]))(this.#program.run(event, { timestamp }));
      outputs.push(...out);
      traces.push(this.#traceEvent(event, index, timestamp, out.length, emissions));
    });
    let openGroups: CorrelationTrace['openGroups'] = [];
    if (sample && this.#prefix !== null) {
      openGroups = this.#openGroups();
      outputs.push(...this.#program.advanceTime(Number.MAX_SAFE_INTEGER));
      for (const emitted of this.#prefix.advanceTime(Number.MAX_SAFE_INTEGER))
        emissions.push(this.#emission(emitted, null));
    }
    const c = this.#correlationIndex;
    const explanation: Explanation = { matched: outputs.length > 0, outputs, events: traces };
    if (c < 0) return explanation;
    const stage = this.#ast.stages[c] as CorrelationStage;
    return {
      ...explanation,
      correlation: { stage: c, kind: stage.kind, pdl: print(stage), emissions, openGroups },
    };
  }

  #traceEvent(
    event: unknown,
    index: number,
    timestamp: number,
    outputs: number,
    emissions: EmissionTrace[],
  ): EventTrace {
    if (!isObject(event)) return { index, stages: [], stoppedAt: 0, outputs };
    const walk = this.#walk(event, 0);
    if (walk.correlation === null || this.#prefix === null)
      return { index, stages: walk.stages, stoppedAt: walk.stoppedAt, outputs };
    // the event reached the first correlation stage: feed it there and read its group
    const routed = this.#prefix.route(event, { timestamp });
    const key = routed?.key ?? '[]';
    const late = this.#prefix.counters.lateEvents;
    this.#store.touched.clear();
    const emitted = this.#prefix.feed(event, { timestamp });
    const wasLate = this.#prefix.counters.lateEvents > late;
    let fired = false;
    for (const e of emitted) {
      const emission = this.#emission(e, index);
      if (emission.group.key === key) fired = true;
      emissions.push(emission);
    }
    const stage = this.#ast.stages[walk.correlation] as CorrelationStage;
    const own = [...emissions].reverse().find((e) => e.atEvent === index && e.group.key === key);
    const live = this.#store.get(`${SCOPE}#${walk.correlation}`, key);
    const open = live !== undefined && live.open ? live : undefined;
    const trace: CorrelationStageTrace = {
      stage: walk.correlation,
      kind: stage.kind,
      pdl: print(stage),
      group: this.#group(key),
      counted: this.#store.touched.has(key) && !wasLate,
      late: wasLate,
      fired,
      passed: fired,
      window: open !== undefined ? { start: open.start, end: open.end } : (own?.window ?? null),
      state: open !== undefined ? this.#state(open, key) : (own?.state ?? null),
      ...(stage.kind === 'TemporalStage' ? { queries: temporalQueries(stage, routed?.event ?? event) } : {}),
    };
    return { index, stages: [...walk.stages, trace], stoppedAt: outputs > 0 ? null : walk.correlation, outputs };
  }

  /** Runs the event through the stages from `from` until one drops it or a correlation stage comes. */
  #walk(
    event: JsonObject,
    from: number,
  ): { stages: StageTrace[]; stoppedAt: number | null; correlation: number | null } {
    const stages: StageTrace[] = [];
    let current = event;
    for (let i = from; i < this.#ast.stages.length; i++) {
      const stage = this.#ast.stages[i] as Stage;
      if (stage.kind === 'AggregationStage' || stage.kind === 'TemporalStage') {
        return { stages, stoppedAt: null, correlation: i };
      }
      if (stage.kind === 'QueryStage') {
        const condition = explainQuery(stage.query, current);
        stages.push({ stage: i, kind: stage.kind, pdl: print(stage), passed: condition.result, condition });
        if (!condition.result) return { stages, stoppedAt: i, correlation: null };
        continue;
      }
      const next = (this.#transforms.get(i) as CompiledPdl).run(current, { timestamp: this.#now() });
      stages.push({ stage: i, kind: stage.kind, pdl: print(stage), passed: next !== null });
      if (next === null) return { stages, stoppedAt: i, correlation: null };
      current = next;
    }
    return { stages, stoppedAt: null, correlation: null };
  }

  /** An output of the first correlation stage, traced through the stages after it. */
  #emission(emitted: JsonObject, atEvent: number | null): EmissionTrace {
    const c = this.#correlationIndex;
    const stage = this.#ast.stages[c] as CorrelationStage;
    const built = (emitted[stage.kind === 'AggregationStage' ? '_aggregation' : '_temporal'] ?? {}) as JsonObject;
    const groupBy = (built['groupBy'] ?? {}) as JsonObject;
    const key = JSON.stringify(stage.options.groupBy.map((f) => groupBy[f.path.join('.')] ?? null));
    const window = built['window'] as { start: number; end: number };
    const walk = this.#walk(emitted, c + 1);
    return {
      group: this.#group(key),
      atEvent,
      window,
      state: summarize(stage, built),
      stages: walk.stages,
      // a second correlation stage: the walk stops before it (its state is not traced)
      stoppedAt: walk.stoppedAt,
    };
  }

  #openGroups(): CorrelationTrace['openGroups'] {
    const out: { group: GroupRef; window: { start: number; end: number }; state: JsonObject }[] = [];
    for (const [key, state] of this.#store.entries(`${SCOPE}#${this.#correlationIndex}`)) {
      if (state.open)
        out.push({
          group: this.#group(key),
          window: { start: state.start, end: state.end },
          state: this.#state(state, key),
        });
    }
    return out;
  }

  #group(key: string): GroupRef {
    const stage = this.#ast.stages[this.#correlationIndex] as CorrelationStage;
    const parsed = JSON.parse(key) as unknown[];
    const values: Record<string, unknown> = {};
    stage.options.groupBy.forEach((f, i) =>
      Object.defineProperty(values, f.path.join('.'), {
        value: parsed[i] ?? null,
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    );
    return { key, values };
  }

  /** What the stage computes over a group's window now (as its output would carry it). */
  #state(state: CorrelationGroupState, key: string): JsonObject {
    const stage = this.#ast.stages[this.#correlationIndex] as CorrelationStage;
    const built = (this.#fn as CorrelationFunction).build(state.summary, this.#group(key).values, {
      start: state.start,
      end: state.end,
    });
    return summarize(stage, built);
  }
}

function temporalQueries(stage: TemporalStage, event: JsonObject): CorrelationStageTrace['queries'] {
  return stage.queries.map((q) => ({
    label: q.label?.value ?? printQuery(q.query),
    condition: explainQuery(q.query, event),
  }));
}

/**
 * The computed part of an `_aggregation` / `_temporal` object, without its group and window (given
 * beside it); a temporal stage's matched events are counted, not copied.
 */
function summarize(stage: AggregationStage | TemporalStage, built: JsonObject): JsonObject {
  const { groupBy: _g, window: _w, ...rest } = built;
  if (stage.kind === 'AggregationStage') return rest;
  const matches = (rest['matches'] ?? {}) as Record<string, unknown[]>;
  const counts: Record<string, number> = {};
  for (const [label, list] of Object.entries(matches)) {
    Object.defineProperty(counts, label, { value: list.length, enumerable: true, writable: true, configurable: true });
  }
  return { ordered: rest['ordered'], matched: rest['matched'], of: stage.queries.length, matches: counts };
}
