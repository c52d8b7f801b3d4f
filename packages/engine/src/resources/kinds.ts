import type { LookupResolver } from '@weir/pdl';
import type { Collection } from '../store/config-store.ts';
import { latestPipeline, latestRule, latestTopology } from './earlier-forms.ts';
import { latestTask } from '../tasks/task-definitions.ts';
import { validateRulePdl } from './rule-pdl.ts';
import { checkSchemaValidTask, type TaskSpec } from '../tasks/index.ts';
import { integerIdRule, stringIdRule } from './ids.ts';
import { pipelineSchema, ruleSchema, taskSchema, topologySchema } from './schemas.ts';

/** What a configuration record always has; the rest depends on the kind. */
export interface ConfigRecord {
  readonly id: number | string;
  readonly name: string;
  readonly [field: string]: unknown;
}

/** What a kind-specific check may consult (the store, for references such as lookup ids). */
export interface CheckContext {
  /** The stored lookups, as PDL and the tasks resolve them (undefined for an id no lookup has). */
  readonly lookups: LookupResolver;
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

export const resourceKinds: readonly ResourceKind[] = [
  {
    path: 'tasks', collection: 'tasks', names: { one: 'task', many: 'tasks' }, idType: 'integer', idRule: integerIdRule, schema: taskSchema, latest: latestTask,
    // What the schema cannot see: regexes, PDL (with its lookups) and time formats must compile.
    check: (record, ctx) => checkSchemaValidTask(record as unknown as TaskSpec, { lookups: ctx.lookups }),
  },
  { path: 'pipelines', collection: 'pipelines', names: { one: 'pipeline', many: 'pipelines' }, idType: 'integer', idRule: integerIdRule, schema: pipelineSchema, latest: latestPipeline },
  { path: 'topologies', collection: 'topologies', names: { one: 'topology', many: 'topologies' }, idType: 'integer', idRule: integerIdRule, schema: topologySchema, latest: latestTopology },
  {
    path: 'rules', collection: 'rules', names: { one: 'rule', many: 'rules' }, idType: 'string', idRule: stringIdRule, schema: ruleSchema, latest: latestRule,
    check: (record, ctx) => validateRulePdl(String(record.pdl), ctx),
  },
];
