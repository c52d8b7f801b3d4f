import type { CorrelationStateStore } from '@weir/pdl';
import { serdeTypeOf, type SerdeType } from '../kafka/serdes.ts';
import type { StoredPipeline } from '../resources/pipeline.ts';
import type { StoredTask } from '../resources/task.ts';
import type { StoredTopology } from '../resources/topology.ts';
import { compileTask, type CompiledTask, type TaskCounters } from '../tasks/index.ts';
import type { ConfigSnapshot } from './config-snapshot.ts';
import { stageTopics, type StageTopics } from './repartition.ts';
import type { LookupTables } from '../rules/lookup-tables.ts';
import type { RuleBook } from '../rules/rule-book.ts';
import { RuleMatches } from '../rules/rule-metrics.ts';

export interface OutputBinding {
  readonly topic: string;
  readonly valueType: SerdeType;
}

/** One enabled topology of this node's group, compiled: the tasks of its pipelines, in order. */
export interface TopologyPlan {
  readonly id: number;
  readonly name: string;
  readonly input: string;
  readonly valueType: SerdeType;
  readonly outputs: readonly OutputBinding[];
  readonly tasks: readonly CompiledTask[];
  /** Why the topology cannot run (a missing pipeline or task, a task that does not compile); its records go to the DLQ. */
  readonly failure?: string;
  /** Task index → the topics of the correlation stage it holds (engine mode: its correlations run on the repartition topic's partitions). */
  readonly stages?: ReadonlyMap<number, StageTopics>;
  /** The rule matches its APPLY_RULES tasks reported, for `weir_rule_matches_total` (shared by the plans of one TaskCache). */
  readonly ruleMatches: RuleMatches;
}

/** Where the records of a repartition topic continue: a topology and the index of its routing task. */
export interface StageBinding {
  readonly topology: TopologyPlan;
  readonly taskIndex: number;
  readonly topics: StageTopics;
}

export interface StreamPlan {
  readonly version: number;
  /** Input topic → the topologies that read it (sub-topologies of one application). */
  readonly byInput: ReadonlyMap<string, readonly TopologyPlan[]>;
  readonly inputTopics: readonly string[];
  readonly outputTopics: readonly string[];
  /** Repartition topic → the stage that consumes it. */
  readonly stages: ReadonlyMap<string, StageBinding>;
}

export interface PlanEnvironment {
  readonly group: string;
  readonly rules: RuleBook;
  readonly lookups: LookupTables;
  readonly counters?: TaskCounters;
  /** Engine mode: correlation stages run on repartition topics named after this consumer group id. */
  readonly groupId?: string;
  /** Where PDL_EXPRESSION correlation state lives (the engine's partitioned store). */
  readonly stateStore?: CorrelationStateStore;
}

/**
 * Compiled tasks are reused across plans while their definition is the same, so PDL correlation
 * state survives reloads; each is prepared (CompiledTask.prepare) when a plan takes it.
 */
export class TaskCache {
  #tasks = new Map<string, CompiledTask>();
  #used = new Set<string>();
  /** Where the tasks compiled here report their rule matches. */
  readonly ruleMatches = new RuleMatches();

  get(topologyId: number, spec: StoredTask, env: PlanEnvironment): CompiledTask {
    const key = `${topologyId}\u0000${spec.id}\u0000${spec.name}\u0000${spec.function}\u0000${JSON.stringify(spec.definition ?? {})}`;
    this.#used.add(key);
    let task = this.#tasks.get(key);
    if (!task) {
      const counters = {
        ...env.counters,
        ruleMatched: this.ruleMatches.ruleMatched,
        ruleSuppressed: this.ruleMatches.ruleSuppressed,
      };
      task = compileTask(spec, {
        rules: env.rules,
        lookups: env.lookups,
        counters,
        ...(env.groupId !== undefined ? { routeCorrelations: true } : {}),
        ...(env.stateStore ? { stateStore: env.stateStore } : {}),
      });
      this.#tasks.set(key, task);
    }
    // the configuration changed: work the task can do ahead of its records (APPLY_RULES: its rule index) is done now
    task.prepare?.();
    return task;
  }

  /** Forgets the tasks the last plan did not use. */
  sweep(): void {
    for (const key of this.#tasks.keys()) if (!this.#used.has(key)) this.#tasks.delete(key);
    this.#used.clear();
  }
}

/** Builds the plan of a node group from a configuration snapshot. Never throws: broken topologies carry `failure`. */
export function buildPlan(snapshot: ConfigSnapshot, env: PlanEnvironment, cache: TaskCache): StreamPlan {
  const pipelines = new Map(snapshot.pipelines.map((p) => [p.id, p]));
  const tasks = new Map(snapshot.tasks.map((t) => [t.id, t]));
  const byInput = new Map<string, TopologyPlan[]>();
  const outputs = new Set<string>();
  const stages = new Map<string, StageBinding>();
  for (const topology of snapshot.topologies) {
    if (topology.enabled === false || (topology.group ?? 'default') !== env.group) continue;
    const plan = planTopology(topology, pipelines, tasks, env, cache);
    for (const [taskIndex, topics] of plan.stages ?? [])
      stages.set(topics.repartition, { topology: plan, taskIndex, topics });
    const list = byInput.get(plan.input) ?? [];
    list.push(plan);
    byInput.set(plan.input, list);
    for (const o of plan.outputs) outputs.add(o.topic);
  }
  cache.sweep();
  return {
    version: snapshot.version,
    byInput,
    inputTopics: [...byInput.keys()].sort(),
    outputTopics: [...outputs].sort(),
    stages,
  };
}

function planTopology(
  topology: StoredTopology,
  pipelines: ReadonlyMap<number, StoredPipeline>,
  tasks: ReadonlyMap<number, StoredTask>,
  env: PlanEnvironment,
  cache: TaskCache,
): TopologyPlan {
  const base = {
    id: topology.id,
    name: topology.name,
    input: topology.input.name,
    valueType: serdeTypeOf(topology.input.valueSerde) ?? 'String',
    outputs: topology.output.map((o) => ({ topic: o.name, valueType: serdeTypeOf(o.valueSerde) ?? 'String' })),
    ruleMatches: cache.ruleMatches,
  };
  const compiled: CompiledTask[] = [];
  for (const pipelineId of topology.pipelines) {
    const pipeline = pipelines.get(pipelineId);
    if (!pipeline) return { ...base, tasks: [], failure: `pipeline ${pipelineId} does not exist` };
    for (const taskId of pipeline.tasks) {
      const spec = tasks.get(taskId);
      if (!spec) return { ...base, tasks: [], failure: `task ${taskId} of pipeline ${pipelineId} does not exist` };
      try {
        compiled.push(cache.get(topology.id, spec, env));
      } catch (err) {
        return {
          ...base,
          tasks: [],
          failure: `task ${taskId} (${spec.name}) does not compile: ${(err as Error).message}`,
        };
      }
    }
  }
  if (env.groupId === undefined) return { ...base, tasks: compiled };
  const stages = new Map<number, StageTopics>();
  compiled.forEach((task, index) => {
    // a task that routes correlations holds a stage now unless it says otherwise (APPLY_RULES: none of its rules correlates)
    if (task.resume !== undefined && task.holdsCorrelation?.() !== false)
      stages.set(index, stageTopics(env.groupId!, topology, task.id));
  });
  return { ...base, tasks: compiled, stages };
}
