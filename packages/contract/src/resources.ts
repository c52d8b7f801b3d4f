import type { FromSchema } from './from-schema.ts';
import { integerId, integerIdRule, stringId, stringIdRule } from './ids.ts';
import { severitySchema } from './severity.ts';
import { suppressionSchema } from './suppression.ts';
import { serdeConfiguration } from './serdes.ts';
import { taskFunctionNames, taskFunctions } from './task-schemas.ts';
import { topicNameSchema } from './topic-names.ts';

/**
 * The configuration resources (spec: Tasks, pipelines, topologies, rules, lookups): each record's
 * JSON Schema and the types derived from it, and the registry of the kinds: their URL path, store
 * collection, id type, names in messages and limits. The engine serves them from this registry,
 * the SDK and weirctl name them from it, the UI builds its pages from it.
 */

/** Fields every kind has. */
export const nameField = { type: 'string', minLength: 1, maxLength: 256 } as const;
export const descriptionField = { type: 'string', maxLength: 16384 } as const;

export const pipelineSchema = {
  type: 'object',
  properties: {
    id: integerId,
    name: nameField,
    description: descriptionField,
    tasks: { type: 'array', items: integerId, maxItems: 1000 },
  },
  required: ['id', 'name', 'tasks'],
  additionalProperties: false,
} as const;

export const ruleSchema = {
  type: 'object',
  properties: {
    id: stringId,
    name: nameField,
    description: descriptionField,
    pdl: { type: 'string', minLength: 1, maxLength: 1024 * 1024 },
    annotations: { type: 'array', items: { type: 'string', maxLength: 1024 }, maxItems: 1000 },
    /** Optional; a rule without one is `medium` (severity.ts). */
    severity: severitySchema,
    /** Optional: keep the first alert of each value of `fields` per `window`, count the rest (suppression.ts). */
    suppression: suppressionSchema,
    enabled: { type: 'boolean' },
    /** Earlier form (spec: Versioning): accepted and kept. */
    datamodel: { type: 'string', maxLength: 1024 },
  },
  required: ['id', 'name', 'pdl', 'enabled'],
  additionalProperties: false,
} as const;

export const taskSchema = {
  type: 'object',
  properties: {
    id: integerId,
    name: nameField,
    description: descriptionField,
    function: { type: 'string', enum: taskFunctionNames },
    definition: { type: 'object' },
  },
  required: ['id', 'name', 'function', 'definition'],
  additionalProperties: false,
  allOf: taskFunctionNames.map((fn) => ({
    if: { properties: { function: { const: fn } }, required: ['function'] },
    then: { properties: { definition: taskFunctions[fn] } },
  })),
} as const;

const serde = { type: 'string', enum: serdeConfiguration.serde } as const;
const topicEndpoint = {
  type: 'object',
  properties: { name: topicNameSchema, keySerde: serde, valueSerde: serde },
  required: ['name', 'keySerde', 'valueSerde'],
  additionalProperties: false,
} as const;

export const topologySchema = {
  type: 'object',
  properties: {
    id: integerId,
    name: nameField,
    description: descriptionField,
    pipelines: { type: 'array', items: integerId, maxItems: 1000 },
    enabled: { type: 'boolean' },
    group: { type: 'string', minLength: 1, maxLength: 256 },
    input: topicEndpoint,
    output: { type: 'array', items: topicEndpoint, maxItems: 100 },
  },
  required: ['id', 'name', 'pipelines', 'enabled', 'group', 'input', 'output'],
  additionalProperties: false,
} as const;

/** A rule (spec: Rule), as stored and answered. */
export type Rule = FromSchema<typeof ruleSchema>;
/** A pipeline (spec: Pipeline): task ids in the order they run. */
export type Pipeline = FromSchema<typeof pipelineSchema>;
/** A topology (spec: Topology), in its latest form. */
export type Topology = FromSchema<typeof topologySchema>;
/** A topic with its serdes, as a topology names its input and outputs. */
export type TopicEndpoint = FromSchema<typeof topicEndpoint>;
/** A task (spec: Task): its definition is checked against its function's schema (task-schemas.ts). */
export type Task = Omit<FromSchema<typeof taskSchema>, 'definition'> & { definition: Record<string, unknown> };

/** The records as the engine stores them: the same shapes, read-only. */
export type StoredRule = DeepReadonly<Rule>;
export type StoredPipeline = DeepReadonly<Pipeline>;
export type StoredTopology = DeepReadonly<Topology>;
export type TopicBinding = DeepReadonly<TopicEndpoint>;
/** The engine reads a stored task's function as text (the schema checked it when it was saved). */
export type StoredTask = Readonly<Omit<Task, 'definition' | 'function'>> & {
  readonly function: string;
  readonly definition: Record<string, unknown>;
};

type DeepReadonly<T> = T extends readonly (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** One kind of resource: how the API names, addresses and limits it. */
export interface KindInfo<P extends string = string> {
  /** URL segment (`/api/<path>`, `/api/bulk/<path>`) and store collection. */
  readonly path: P;
  readonly collection: P;
  /** Names used in the spec's debugMessages (and by weirctl: `weirctl get rules`). */
  readonly names: { readonly one: string; readonly many: string };
  /** The record's id field, its type and what a valid one looks like (for error messages). */
  readonly idField: 'id';
  readonly idType: 'integer' | 'string';
  readonly idRule: string;
  /** The record's schema (undefined for lookups, which are file uploads). */
  readonly schema: object | undefined;
  /** The setting that limits how many records of the kind may be stored, if any. */
  readonly countLimitSetting?: string;
}

/** The configuration resources with the spec's six routes, in the order a configuration refers to them. */
export const configKinds = {
  tasks: {
    path: 'tasks',
    collection: 'tasks',
    names: { one: 'task', many: 'tasks' },
    idField: 'id',
    idType: 'integer',
    idRule: integerIdRule,
    schema: taskSchema,
  },
  pipelines: {
    path: 'pipelines',
    collection: 'pipelines',
    names: { one: 'pipeline', many: 'pipelines' },
    idField: 'id',
    idType: 'integer',
    idRule: integerIdRule,
    schema: pipelineSchema,
  },
  topologies: {
    path: 'topologies',
    collection: 'topologies',
    names: { one: 'topology', many: 'topologies' },
    idField: 'id',
    idType: 'integer',
    idRule: integerIdRule,
    schema: topologySchema,
  },
  rules: {
    path: 'rules',
    collection: 'rules',
    names: { one: 'rule', many: 'rules' },
    idField: 'id',
    idType: 'string',
    idRule: stringIdRule,
    schema: ruleSchema,
    countLimitSetting: 'weir.rules.max-count',
  },
} as const satisfies { [P in string]: KindInfo<P> };

export type ConfigKindPath = keyof typeof configKinds;

/** Lookups, the fifth resource, fed by file uploads (spec: Lookups). */
export const lookupKind = {
  path: 'lookups',
  collection: 'lookups',
  names: { one: 'lookup', many: 'lookups' },
  idField: 'id',
  idType: 'string',
  idRule: stringIdRule,
  schema: undefined,
} as const satisfies KindInfo<'lookups'>;

/** Every resource kind, in the order a configuration bundle writes them (what a later kind refers to exists first). */
export const resourceKindInfos = [
  lookupKind,
  configKinds.rules,
  configKinds.tasks,
  configKinds.pipelines,
  configKinds.topologies,
] as const;
export type ResourcePath = (typeof resourceKindInfos)[number]['path'];

/** The store's collections: the resources', the node's own records, the alerts' silences and notifiers. */
export const collections = [
  'meta',
  'users',
  'tasks',
  'pipelines',
  'topologies',
  'rules',
  'lookups',
  'nodes',
  'silences',
  'notifiers',
] as const;
export type Collection = (typeof collections)[number];
