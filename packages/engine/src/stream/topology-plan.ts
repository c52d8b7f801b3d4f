import { ruleFields } from '../tasks/rule-alert.ts';
import { compile, type CompiledPdl, type CorrelationStateStore, type LookupResolver, type LookupTable } from '@weir/pdl';
import { serdeTypeOf, type SerdeType } from '../kafka/serdes.ts';
import { compileTask, type CompiledTask, type RuleEntry, type RuleSource, type TaskCounters } from '../tasks/index.ts';
import type { ConfigSnapshot, LookupRecord, RuleRecord, TopologyRecord } from './config-snapshot.ts';
import { stageTopics, type StageTopics } from './repartition.ts';

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
  /** Rule id → the topologies whose APPLY_RULES lists it (where clock-closed correlation alerts go). */
  readonly ruleTopologies: ReadonlyMap<string, readonly TopologyPlan[]>;
  /** Repartition topic → the stage that consumes it. */
  readonly stages: ReadonlyMap<string, StageBinding>;
}

/** Rules by id, swapped as a whole when the configuration changes; compiled rules are reused while their PDL is unchanged. */
export class RuleBook implements RuleSource {
  #entries = new Map<string, RuleEntry & { readonly compiled: CompiledPdl }>();
  #compiled = new Map<string, { pdl: string; compiled: CompiledPdl }>();
  /** Rules whose PDL no longer compiles (e.g. a lookup they use was deleted), with the reason. */
  readonly broken = new Map<string, string>();
  #version = 0;
  readonly #stateStore: CorrelationStateStore | undefined;

  /** `stateStore`: where the correlation rules keep their state (the engine's partitioned store); default one in-memory store per rule. */
  constructor(stateStore?: CorrelationStateStore) {
    this.#stateStore = stateStore;
  }

  get(id: string): RuleEntry | undefined {
    return this.#entries.get(id);
  }

  /** Changes on every update (RuleSource.version: APPLY_RULES then resolves its rules again). */
  get version(): number {
    return this.#version;
  }

  update(rules: readonly RuleRecord[], lookups: LookupResolver): void {
    const entries = new Map<string, RuleEntry & { readonly compiled: CompiledPdl }>();
    const compiled = new Map<string, { pdl: string; compiled: CompiledPdl }>();
    this.broken.clear();
    for (const rule of rules) {
      let program = this.#compiled.get(rule.id);
      if (!program || program.pdl !== rule.pdl) {
        try {
          program = { pdl: rule.pdl, compiled: compile(rule.pdl, { lookups, stateId: `rule:${rule.id}`, ...(this.#stateStore ? { stateStore: this.#stateStore } : {}) }) };
        } catch (err) {
          this.broken.set(rule.id, (err as Error).message);
          continue;
        }
      }
      compiled.set(rule.id, program);
      entries.set(rule.id, { ...ruleFields(rule), enabled: rule.enabled !== false, compiled: program.compiled });
    }
    this.#entries = entries;
    this.#compiled = compiled;
    this.#version++;
  }

  /** Every compiled rule (the clock closes the emit=close windows of correlation rules). */
  compiledRules(): Iterable<RuleEntry & { readonly compiled: CompiledPdl }> {
    return this.#entries.values();
  }
}

/**
 * Lookup tables by id. Replaced only when the lookups changed (the engine sends them only then), so
 * the PDL indexes built on a table survive other configuration changes.
 */
export class LookupBook implements LookupResolver {
  #tables = new Map<string, LookupTable>();
  #version = 0;

  get(id: string): LookupTable | undefined {
    return this.#tables.get(id);
  }

  update(lookups: readonly LookupRecord[]): void {
    const next = new Map<string, LookupTable>();
    this.#version++;
    for (const lookup of lookups) next.set(lookup.id, { version: this.#version, rows: lookup.content });
    this.#tables = next;
  }
}

export interface PlanEnvironment {
  readonly group: string;
  readonly rules: RuleBook;
  readonly lookups: LookupBook;
  readonly counters?: TaskCounters;
  /** Engine mode: correlation stages run on repartition topics named after this consumer group id. */
  readonly groupId?: string;
  /** Where PDL_EXPRESSION correlation state lives (the engine's partitioned store). */
  readonly stateStore?: CorrelationStateStore;
}

/** Compiled tasks are reused across plans while their definition is the same, so PDL correlation state survives reloads. */
export class TaskCache {
  #tasks = new Map<string, CompiledTask>();
  #used = new Set<string>();

  get(topologyId: number, spec: { id: number; name: string; function: string; definition?: unknown }, env: PlanEnvironment): CompiledTask {
    const key = `${topologyId}\u0000${spec.id}\u0000${spec.name}\u0000${spec.function}\u0000${JSON.stringify(spec.definition ?? {})}`;
    this.#used.add(key);
    let task = this.#tasks.get(key);
    if (!task) {
      task = compileTask(spec, { rules: env.rules, lookups: env.lookups, counters: env.counters,
        ...(env.groupId !== undefined ? { routeCorrelations: true } : {}), ...(env.stateStore ? { stateStore: env.stateStore } : {}) });
      this.#tasks.set(key, task);
    }
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
  const ruleTopologies = new Map<string, TopologyPlan[]>();
  const stages = new Map<string, StageBinding>();
  for (const topology of snapshot.topologies) {
    if (topology.enabled === false || (topology.group ?? 'default') !== env.group) continue;
    const plan = planTopology(topology, pipelines, tasks, env, cache);
    for (const [taskIndex, topics] of plan.stages ?? []) stages.set(topics.repartition, { topology: plan, taskIndex, topics });
    const list = byInput.get(plan.input) ?? [];
    list.push(plan);
    byInput.set(plan.input, list);
    for (const o of plan.outputs) outputs.add(o.topic);
    for (const ruleId of appliedRules(topology, pipelines, tasks)) {
      const users = ruleTopologies.get(ruleId) ?? [];
      users.push(plan);
      ruleTopologies.set(ruleId, users);
    }
  }
  cache.sweep();
  return { version: snapshot.version, byInput, inputTopics: [...byInput.keys()].sort(), outputTopics: [...outputs].sort(), ruleTopologies, stages };
}

/** The rule ids that the APPLY_RULES tasks of a topology list. */
function appliedRules(topology: TopologyRecord, pipelines: Map<number, ConfigSnapshot['pipelines'][number]>,
  tasks: Map<number, ConfigSnapshot['tasks'][number]>): Set<string> {
  const ids = new Set<string>();
  for (const pipelineId of topology.pipelines) {
    for (const taskId of pipelines.get(pipelineId)?.tasks ?? []) {
      const task = tasks.get(taskId);
      const rules = task?.function === 'APPLY_RULES' ? (task.definition as { rules?: unknown } | undefined)?.rules : undefined;
      if (Array.isArray(rules)) for (const id of rules) ids.add(String(id));
    }
  }
  return ids;
}

function planTopology(topology: TopologyRecord, pipelines: Map<number, ConfigSnapshot['pipelines'][number]>,
  tasks: Map<number, ConfigSnapshot['tasks'][number]>, env: PlanEnvironment, cache: TaskCache): TopologyPlan {
  const base = {
    id: topology.id,
    name: topology.name,
    input: topology.input.name,
    valueType: serdeTypeOf(topology.input.valueSerde) ?? 'String',
    outputs: topology.output.map((o) => ({ topic: o.name, valueType: serdeTypeOf(o.valueSerde) ?? 'String' })),
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
        return { ...base, tasks: [], failure: `task ${taskId} (${spec.name}) does not compile: ${(err as Error).message}` };
      }
    }
  }
  if (env.groupId === undefined) return { ...base, tasks: compiled };
  const stages = new Map<number, StageTopics>();
  compiled.forEach((task, index) => {
    if (task.resume !== undefined && holdsCorrelation(tasks.get(task.id), env.rules)) stages.set(index, stageTopics(env.groupId!, topology, task.id));
  });
  return { ...base, tasks: compiled, stages };
}

/** Whether a task holds a correlation stage now: a PDL_EXPRESSION that routes, or an APPLY_RULES listing a correlation rule. */
function holdsCorrelation(spec: ConfigSnapshot['tasks'][number] | undefined, rules: RuleBook): boolean {
  if (spec?.function === 'PDL_EXPRESSION') return true;
  if (spec?.function !== 'APPLY_RULES') return false;
  const ids = (spec.definition as { rules?: unknown } | undefined)?.rules;
  return Array.isArray(ids) && ids.some((id) => rules.get(String(id))?.compiled.hasCorrelation === true);
}
