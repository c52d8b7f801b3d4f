import type { Pipeline, Stage } from './ast.ts';
import { CorrelationRuntime } from './correlation.ts';
import type { PdlCounters } from './correlation.ts';
import { aggregationFunction, temporalFunction } from './correlationFunctions.ts';
import type { LookupResolver } from './lookup.ts';
import type { PdlLimits } from './limits.ts';
import { resolveLimits } from './limits.ts';
import { parse } from './parser.ts';
import { compileQuery } from './query.ts';
import { InMemoryCorrelationStateStore } from './stateStore.ts';
import type { CorrelationStateStore } from './stateStore.ts';
import type { Transform, TransformEnvironment } from './transforms.ts';
import {
  compileEval,
  compileFields,
  compileFlatten,
  compileLookupStage,
  compileParseCsv,
  compileParseKv,
  compileRename,
  compileRex,
} from './transforms.ts';
import type { OutputNames } from './outputNames.ts';
import { outputNames } from './outputNames.ts';
import type { JsonObject } from './values.ts';
import { asNumber, cloneJson, isObject } from './values.ts';

export interface CompileOptions {
  /** Lookup tables; when given, unknown lookup ids are compile errors. */
  readonly lookups?: LookupResolver;
  /** Where correlation stages keep state; default: a new in-memory store for this program. */
  readonly stateStore?: CorrelationStateStore;
  /** Identifies this program's state in a shared store (default `pdl`). */
  readonly stateId?: string;
  readonly limits?: Partial<PdlLimits>;
  /** The clock of now() and of events without time; default Date.now. */
  readonly now?: () => number;
  /** The names of the fields correlation stages add (outputNames.ts); default: the process's (`setOutputNames`). */
  readonly outputNames?: OutputNames;
}

export interface EvaluationContext {
  /** The record timestamp (epoch ms), used as event time when the event has no `_time`. */
  readonly timestamp?: number;
}

export interface CompiledPdl {
  readonly ast: Pipeline;
  /** Whether a stage keeps state across events (then use feed and advanceTime). */
  readonly hasCorrelation: boolean;
  /** The first output for the event, or null (rules). Never throws and never mutates `event`. */
  run(event: unknown, context?: EvaluationContext): JsonObject | null;
  /** Every output for the event (correlations may emit several, e.g. windows closed by its time). */
  feed(event: unknown, context?: EvaluationContext): JsonObject[];
  /**
   * Advances every correlation stage's stream time to `nowMs` (never back): closes emit=close
   * windows ended before `nowMs - allowedLatenessMs`, forgets idle groups. Without it, time moves
   * only with the events' own times.
   */
  advanceTime(nowMs: number): JsonObject[];
  /** Advances every correlation stage's stream time by `elapsedMs` from where it is (idle close). */
  advanceBy(elapsedMs: number): JsonObject[];
  /**
   * Where an event goes, for an engine that runs the first correlation stage where its group's
   * state lives: the stages before it are run here, and the result is the event as it reaches the
   * stage, its group key and its event time. null: the event stops before the stage (or there is none).
   */
  route(event: unknown, context?: EvaluationContext): RoutedEvent | null;
  /** Continues a routed event from its stage (on the partition of its group): every output. */
  resume(routed: Pick<RoutedEvent, 'stage' | 'event' | 'time'>): JsonObject[];
  readonly counters: Readonly<PdlCounters>;
}

export interface RoutedEvent {
  /** Index of the correlation stage the event continues at. */
  readonly stage: number;
  /** JSON array of the stage's group_by values (`[]` without group_by: one group). */
  readonly key: string;
  readonly event: JsonObject;
  /** Event time (its `_time`, else the record timestamp). */
  readonly time: number;
}

interface TransformStage {
  readonly type: 'transform';
  /** Queries only read: the caller's event needs no copy before them. */
  readonly mutates: boolean;
  readonly apply: (event: JsonObject) => JsonObject | null;
  /** A query stage's predicate (`apply` returns the event when it holds). */
  readonly predicate?: (event: JsonObject) => boolean;
}

interface CorrelationStageRuntime {
  readonly type: 'correlation';
  readonly runtime: CorrelationRuntime;
}

type RuntimeStage = TransformStage | CorrelationStageRuntime;

interface StageEnvironment extends TransformEnvironment {
  readonly store: CorrelationStateStore;
  readonly scope: string;
  readonly limits: PdlLimits;
  readonly counters: PdlCounters;
  readonly names: OutputNames;
}

const transform = (apply: Transform): TransformStage => ({ type: 'transform', mutates: true, apply });

type StageCompilers = {
  readonly [K in Stage['kind']]: (node: Extract<Stage, { kind: K }>, env: StageEnvironment) => RuntimeStage;
};

const stageCompilers: StageCompilers = {
  QueryStage: (node) => {
    const predicate = compileQuery(node.query);
    return { type: 'transform', mutates: false, apply: (event) => (predicate(event) ? event : null), predicate };
  },
  EvalStage: (node, env) => transform(compileEval(node, env)),
  FieldsStage: (node) => transform(compileFields(node)),
  RenameStage: (node) => transform(compileRename(node)),
  FlattenStage: (node) => transform(compileFlatten(node)),
  LookupStage: (node, env) => transform(compileLookupStage(node, env)),
  RexStage: (node) => transform(compileRex(node)),
  ParseKvStage: (node) => transform(compileParseKv(node)),
  ParseCsvStage: (node) => transform(compileParseCsv(node)),
  AggregationStage: (node, env) => {
    const fn = aggregationFunction(node, node.options.emit === 'event', env.limits.maxEventsPerGroup);
    return {
      type: 'correlation',
      runtime: new CorrelationRuntime(node.options, fn, env.store, env.scope, env.limits, env.counters, env.names),
    };
  },
  TemporalStage: (node, env) => {
    const fn = temporalFunction(node, env.limits.maxEventsPerGroup);
    return {
      type: 'correlation',
      runtime: new CorrelationRuntime(node.options, fn, env.store, env.scope, env.limits, env.counters, env.names),
    };
  },
};

/**
 * Compiles PDL once into closures evaluated per event (pdl.md, "Errors": never re-parsed).
 * Throws PdlSyntaxError for syntax errors, unknown functions and, when `lookups` is given,
 * unknown lookup ids.
 */
export function compile(source: string | Pipeline, options: CompileOptions = {}): CompiledPdl {
  const limits = resolveLimits(options.limits);
  const ast = typeof source === 'string' ? parse(source, { limits }) : source;
  return new CompiledPipeline(ast, options, limits);
}

function eventTime(event: JsonObject, timestamp: number | undefined, now: () => number): number {
  const own = Object.hasOwn(event, '_time') ? asNumber(event['_time']) : undefined;
  if (own !== undefined) return own;
  return timestamp !== undefined && Number.isFinite(timestamp) ? timestamp : now();
}

class CompiledPipeline implements CompiledPdl {
  readonly ast: Pipeline;
  readonly hasCorrelation: boolean;
  readonly #stages: readonly RuntimeStage[];
  readonly #counters: PdlCounters = { lateEvents: 0, evictedGroups: 0, evictedEvents: 0, evaluationErrors: 0 };
  readonly #now: () => number;
  /** A program of one query (most rules): `run` calls it directly. */
  readonly #query: ((event: JsonObject) => boolean) | null;

  constructor(ast: Pipeline, options: CompileOptions, limits: PdlLimits) {
    this.ast = ast;
    this.#now = options.now ?? Date.now;
    const store = options.stateStore ?? new InMemoryCorrelationStateStore();
    const stateId = options.stateId ?? 'pdl';
    this.#stages = ast.stages.map((stage, index) => {
      const env: StageEnvironment = {
        lookups: options.lookups,
        now: this.#now,
        store,
        scope: `${stateId}#${index}`,
        limits,
        counters: this.#counters,
        names: options.outputNames ?? outputNames(),
      };
      return (stageCompilers[stage.kind] as (n: Stage, e: StageEnvironment) => RuntimeStage)(stage, env);
    });
    this.hasCorrelation = this.#stages.some((s) => s.type === 'correlation');
    const only = this.#stages.length === 1 ? this.#stages[0] : undefined;
    this.#query = only?.type === 'transform' && only.predicate !== undefined ? only.predicate : null;
  }

  get counters(): Readonly<PdlCounters> {
    return this.#counters;
  }

  run(event: unknown, context?: EvaluationContext): JsonObject | null {
    if (!isObject(event)) return null;
    const query = this.#query;
    if (query !== null) {
      try {
        return query(event) ? event : null;
      } catch {
        this.#counters.evaluationErrors++;
        return null;
      }
    }
    if (this.hasCorrelation) return this.feed(event, context)[0] ?? null;
    try {
      let current = event;
      let owned = false;
      const stages = this.#stages as readonly TransformStage[];
      for (let i = 0; i < stages.length; i++) {
        const stage = stages[i] as TransformStage;
        if (stage.mutates && !owned) {
          current = cloneJson(current) as JsonObject;
          owned = true;
        }
        const next = stage.apply(current);
        if (next === null) return null;
        current = next;
      }
      return current;
    } catch {
      this.#counters.evaluationErrors++;
      return null;
    }
  }

  feed(event: unknown, context?: EvaluationContext): JsonObject[] {
    const out: JsonObject[] = [];
    if (!isObject(event)) return out;
    try {
      this.#runFrom(0, event, false, context?.timestamp, out);
    } catch {
      this.#counters.evaluationErrors++;
    }
    return out;
  }

  advanceTime(nowMs: number): JsonObject[] {
    return this.#advance((runtime, emitted) => runtime.flush(nowMs, emitted));
  }

  advanceBy(elapsedMs: number): JsonObject[] {
    return this.#advance((runtime, emitted) => runtime.advanceBy(elapsedMs, emitted));
  }

  #advance(step: (runtime: CorrelationRuntime, emitted: JsonObject[]) => void): JsonObject[] {
    const out: JsonObject[] = [];
    try {
      for (let i = 0; i < this.#stages.length; i++) {
        const stage = this.#stages[i] as RuntimeStage;
        if (stage.type !== 'correlation') continue;
        const emitted: JsonObject[] = [];
        step(stage.runtime, emitted);
        for (const e of emitted) this.#runFrom(i + 1, e, true, undefined, out);
      }
    } catch {
      this.#counters.evaluationErrors++;
    }
    return out;
  }

  route(event: unknown, context?: EvaluationContext): RoutedEvent | null {
    if (!isObject(event) || !this.hasCorrelation) return null;
    try {
      let current = event;
      let owned = false;
      for (let i = 0; i < this.#stages.length; i++) {
        const stage = this.#stages[i] as RuntimeStage;
        if (stage.type === 'correlation') {
          return {
            stage: i,
            key: stage.runtime.keyOf(current),
            event: current,
            time: eventTime(current, context?.timestamp, this.#now),
          };
        }
        if (stage.mutates && !owned) {
          current = cloneJson(current) as JsonObject;
          owned = true;
        }
        const next = stage.apply(current);
        if (next === null) return null;
        current = next;
      }
    } catch {
      this.#counters.evaluationErrors++;
    }
    return null;
  }

  resume(routed: Pick<RoutedEvent, 'stage' | 'event' | 'time'>): JsonObject[] {
    const out: JsonObject[] = [];
    if (this.#stages[routed.stage]?.type !== 'correlation') return out;
    try {
      this.#runFrom(routed.stage, routed.event, true, routed.time, out);
    } catch {
      this.#counters.evaluationErrors++;
    }
    return out;
  }

  #runFrom(index: number, event: JsonObject, owned: boolean, timestamp: number | undefined, out: JsonObject[]): void {
    let current = event;
    for (let i = index; i < this.#stages.length; i++) {
      const stage = this.#stages[i] as RuntimeStage;
      if (stage.type === 'correlation') {
        const emitted: JsonObject[] = [];
        stage.runtime.process(current, eventTime(current, timestamp, this.#now), emitted);
        for (const e of emitted) this.#runFrom(i + 1, e, true, undefined, out);
        return;
      }
      if (stage.mutates && !owned) {
        current = cloneJson(current) as JsonObject;
        owned = true;
      }
      const next = stage.apply(current);
      if (next === null) return;
      current = next;
    }
    out.push(current);
  }
}
