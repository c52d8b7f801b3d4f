import type { StoredPipeline, StoredRule, StoredTask, StoredTopology } from '@weir/contract';
import type { LookupResolver } from '@weir/pdl';
import { domainError, isDomainError } from '../core/errors.ts';
import { serdeTypeOf } from '../kafka/serdes.ts';
import { compileTask, isTaskDefinitionError } from '../tasks/index.ts';
import type { BacktestSubject } from './backtest-evaluator.ts';
import type { BacktestPlan } from './backtest-request.ts';

/**
 * A pipeline or topology as a backtest's candidate (docs/detection-as-code.md, "Backtests over
 * Kafka"): a stored one (in force, or a version of it) or a pipeline given inline, resolved to the
 * tasks the live engine would run, with the one in force as the current side. Every refusal is
 * BACKTEST_INVALID naming the field (`candidate.pipeline`, `candidate.version`,
 * `candidate.pipeline.tasks[1]`).
 */

export type Versioned = 'rules' | 'pipelines' | 'topologies';

/** What a request's candidate is resolved against: the stored versions and records, the rules in force, the lookups. */
export interface BacktestCatalog {
  /**
   * Version `version` of a record as stored (undefined: that version records its deletion); throws
   * VERSION_MISSING (a DomainError naming the record and its versions).
   */
  version(collection: Versioned, id: string, version: number): unknown;
  /** The record in force, if any. */
  current<T>(collection: Versioned | 'tasks', id: string): T | undefined;
  /** Every rule in force: what the APPLY_RULES tasks of a pipeline or topology resolve. */
  rules(): readonly StoredRule[];
  readonly lookups: LookupResolver;
}

const invalid = (where: string, what: string) => domainError('BACKTEST_INVALID', `${where}: ${what}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored pipeline or topology (in force, or a version of it) as the candidate; the one in force as the current side. */
export function flowCandidate(
  kind: 'pipeline' | 'topology',
  value: Record<string, unknown>,
  catalog: BacktestCatalog,
): Pick<BacktestPlan, 'label' | 'candidate' | 'current' | 'rules'> {
  const collection = kind === 'pipeline' ? 'pipelines' : 'topologies';
  const id = value[kind];
  if (kind === 'pipeline' && isObject(id)) return inlinePipeline(id, 'version' in value, catalog);
  if (!Number.isInteger(id) || (id as number) < 0)
    throw invalid(`candidate.${kind}`, `${JSON.stringify(id)} is not a ${kind} id (a whole number)`);
  const inForce = catalog.current<StoredPipeline | StoredTopology>(collection, String(id));
  let record: StoredPipeline | StoredTopology | undefined;
  let label = `${kind} ${String(id)}`;
  if ('version' in value) {
    const v = value['version'];
    if (!Number.isInteger(v) || (v as number) < 1)
      throw invalid('candidate.version', `'${String(v)}' is not a version number; versions are whole numbers from 1`);
    try {
      record = catalog.version(collection, String(id), v as number) as typeof record;
    } catch (err) {
      if (isDomainError(err)) throw invalid('candidate.version', err.message);
      throw err;
    }
    if (record === undefined)
      throw invalid('candidate.version', `version ${String(v)} of ${label} records its deletion and holds no ${kind}`);
    label += ` version ${String(v)}`;
  } else {
    record = inForce;
    if (record === undefined)
      throw invalid(`candidate.${kind}`, `${label} does not exist (give version to backtest a deleted one's version)`);
  }
  const candidate = subjectOf(kind, record, catalog, true);
  if (candidate.failure !== undefined) throw invalid(`candidate.${kind}`, `${label}: ${candidate.failure}`);
  return {
    label,
    candidate,
    current: inForce ? subjectOf(kind, inForce, catalog, false) : { tasks: [], rules: [] },
    rules: ruleIdsOf(candidate.tasks),
  };
}

/**
 * A pipeline given in the request, `{id?, tasks: [...]}`: each task a stored task's id or a task
 * (`{id, name, function, definition}`, checked as the API checks a task's function and
 * definition); the pipeline in force with `id`, if any, is the current side.
 */
function inlinePipeline(
  value: Record<string, unknown>,
  versioned: boolean,
  catalog: BacktestCatalog,
): Pick<BacktestPlan, 'label' | 'candidate' | 'current' | 'rules'> {
  if (versioned)
    throw invalid('candidate.version', 'goes with a stored pipeline ({pipeline: <id>, version}), not an inline one');
  const accepted = ['id', 'name', 'description', 'tasks'];
  for (const key of Object.keys(value))
    if (!accepted.includes(key))
      throw invalid(
        `candidate.pipeline.${key}`,
        `is not a field of an inline pipeline (accepted: ${accepted.join(', ')})`,
      );
  const id = value['id'];
  if (id !== undefined && (!Number.isInteger(id) || (id as number) < 0))
    throw invalid('candidate.pipeline.id', `${JSON.stringify(id)} is not a pipeline id (a whole number)`);
  const list = value['tasks'];
  if (!Array.isArray(list) || list.length === 0)
    throw invalid(
      'candidate.pipeline.tasks',
      'must be a non-empty array: task ids, or tasks {id, name, function, definition}',
    );
  const tasks = list.map((t, i): StoredTask => {
    const where = `candidate.pipeline.tasks[${i}]`;
    let spec: StoredTask | undefined;
    if (Number.isInteger(t)) {
      spec = catalog.current<StoredTask>('tasks', String(t));
      if (spec === undefined) throw invalid(where, `task ${String(t)} does not exist`);
    } else if (isObject(t)) {
      if (!Number.isInteger(t['id']) || (t['id'] as number) < 0)
        throw invalid(`${where}.id`, 'is required: a task id (a whole number)');
      if (typeof t['function'] !== 'string') throw invalid(`${where}.function`, 'is required: a task function');
      spec = {
        id: t['id'] as number,
        name: typeof t['name'] === 'string' ? t['name'] : t['function'],
        description: '',
        function: t['function'],
        definition: isObject(t['definition']) ? t['definition'] : {},
      };
    } else throw invalid(where, 'must be a task id or a task {id, name, function, definition}');
    const why = compileFailure(spec, catalog);
    if (why !== undefined) throw invalid(where, `task ${spec.id} (${spec.name}) does not compile: ${why}`);
    return spec;
  });
  const inForce = id === undefined ? undefined : catalog.current<StoredPipeline>('pipelines', String(id));
  return {
    label: id === undefined ? 'an inline pipeline' : `pipeline ${String(id)} (inline)`,
    candidate: { tasks, rules: rulesNamed(tasks, catalog), valueType: 'String' },
    current: inForce ? subjectOf('pipeline', inForce, catalog, false) : { tasks: [], rules: [] },
    rules: ruleIdsOf(tasks),
  };
}

/** The rules the APPLY_RULES tasks name, in order, each once. */
function ruleIdsOf(tasks: readonly BacktestSubject['tasks'][number][]): string[] {
  const rules = new Set<string>();
  for (const task of tasks)
    if (task.function === 'APPLY_RULES')
      for (const r of ((task.definition as { rules?: unknown } | undefined)?.rules as unknown[] | undefined) ?? [])
        if (typeof r === 'string') rules.add(r);
  return [...rules];
}

/** The rules in force that the APPLY_RULES tasks name (the only ones they resolve). */
function rulesNamed(tasks: readonly BacktestSubject['tasks'][number][], catalog: BacktestCatalog): StoredRule[] {
  const named = new Set(ruleIdsOf(tasks));
  return catalog.rules().filter((r) => named.has(r.id));
}

/** Why a task does not compile (its violations), or undefined. */
function compileFailure(spec: StoredTask, catalog: BacktestCatalog): string | undefined {
  try {
    compileTask(spec, { lookups: catalog.lookups });
    return undefined;
  } catch (err) {
    return isTaskDefinitionError(err) ? err.violations.join('; ') : (err as Error).message;
  }
}

/**
 * A pipeline's tasks, or a topology's pipelines' tasks one after another, as stored now (the
 * live engine's plan, topology-plan.ts); what it cannot resolve is its `failure`, as the live
 * engine's topology would carry it. `check`: each task is compiled once to report a failure here.
 */
function subjectOf(
  kind: 'pipeline' | 'topology',
  record: StoredPipeline | StoredTopology,
  catalog: BacktestCatalog,
  check: boolean,
): BacktestSubject {
  const topology = kind === 'topology' ? (record as StoredTopology) : undefined;
  const pipelineIds = topology ? topology.pipelines : [record.id];
  const valueType = topology ? (serdeTypeOf(topology.input.valueSerde) ?? 'String') : 'String';
  const tasks: StoredTask[] = [];
  const failed = (failure: string): BacktestSubject => ({ tasks: [], rules: [], valueType, failure });
  for (const pipelineId of pipelineIds) {
    const pipeline = topology
      ? catalog.current<StoredPipeline>('pipelines', String(pipelineId))
      : (record as StoredPipeline);
    if (!pipeline) return failed(`pipeline ${pipelineId} does not exist`);
    for (const taskId of pipeline.tasks) {
      const spec = catalog.current<StoredTask>('tasks', String(taskId));
      if (!spec) return failed(`task ${taskId} of pipeline ${pipelineId} does not exist`);
      const why = check ? compileFailure(spec, catalog) : undefined;
      if (why !== undefined) return failed(`task ${taskId} (${spec.name}) does not compile: ${why}`);
      tasks.push(spec);
    }
  }
  return { tasks, rules: rulesNamed(tasks, catalog), valueType };
}
