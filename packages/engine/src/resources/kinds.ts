import type { Collection } from '../store/config-store.ts';
import { latestPipeline, latestRule, latestTopology } from './earlier-forms.ts';
import { latestTask } from '../tasks/task-definitions.ts';
import { validateRulePdl } from './rule-pdl.ts';
import { checkSchemaValidTask, type TaskSpec } from '../tasks/index.ts';
import { pipelineSchema, ruleSchema, stringIdRule, taskSchema, topologySchema } from './schemas.ts';

/** What a configuration record always has; the rest depends on the kind. */
export interface ConfigRecord {
  readonly id: number | string;
  readonly name: string;
  readonly [field: string]: unknown;
}

/** What a kind-specific check may consult (the store, for references such as lookup ids). */
export interface CheckContext {
  /** The rows of a lookup, or undefined when there is no lookup with that id. */
  lookupRows(id: string): readonly Record<string, unknown>[] | undefined;
}

/**
 * One kind of configuration resource (spec: Tasks, pipelines, topologies, rules): the only thing
 * that differs between the four is this description; the CRUD logic is ConfigResource.
 */
export interface ResourceKind {
  /** URL segment (`/api/<path>`, `/api/bulk/<path>`) and store collection. */
  readonly path: 'tasks' | 'pipelines' | 'topologies' | 'rules';
  readonly collection: Collection;
  /** Names used in the spec's debugMessages. */
  readonly names: { readonly one: string; readonly many: string };
  readonly idType: 'integer' | 'string';
  /** What a valid id looks like, for error messages. */
  readonly idRule: string;
  readonly schema: object;
  /** Earlier forms → latest form, plus defaults; runs before validation. */
  latest(record: Record<string, unknown>): Record<string, unknown>;
  /** Checks the schema cannot express; returns violations like the schema's. */
  check?(record: ConfigRecord, ctx: CheckContext): string[];
}

const integerIdRule = `an integer from 0 to ${Number.MAX_SAFE_INTEGER}`;

export const resourceKinds: readonly ResourceKind[] = [
  {
    path: 'tasks', collection: 'tasks', names: { one: 'task', many: 'tasks' }, idType: 'integer', idRule: integerIdRule, schema: taskSchema, latest: latestTask,
    // What the schema cannot see: regexes, PDL (with its lookups) and time formats must compile.
    check: (record, ctx) => checkSchemaValidTask(record as unknown as TaskSpec, { lookups: { get: (id) => { const rows = ctx.lookupRows(id); return rows && { rows }; } } }),
  },
  { path: 'pipelines', collection: 'pipelines', names: { one: 'pipeline', many: 'pipelines' }, idType: 'integer', idRule: integerIdRule, schema: pipelineSchema, latest: latestPipeline },
  { path: 'topologies', collection: 'topologies', names: { one: 'topology', many: 'topologies' }, idType: 'integer', idRule: integerIdRule, schema: topologySchema, latest: latestTopology },
  {
    path: 'rules', collection: 'rules', names: { one: 'rule', many: 'rules' }, idType: 'string', idRule: stringIdRule, schema: ruleSchema, latest: latestRule,
    check: (record, ctx) => validateRulePdl(String(record.pdl), ctx),
  },
];
