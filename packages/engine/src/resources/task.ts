import { checkSchemaValidTask, type TaskSpec } from '../tasks/index.ts';
import { latestTask, taskFunctionNames, taskFunctions } from '../tasks/task-definitions.ts';
import { integerId, integerIdRule } from './ids.ts';
import { descriptionField, nameField, type ResourceKind } from './resource-kind.ts';

/** A task as stored (spec: Task): its definition is validated against its function's schema. */
export interface StoredTask {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
  readonly function: string;
  readonly definition: Record<string, unknown>;
}

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

export const taskKind: ResourceKind = {
  path: 'tasks',
  collection: 'tasks',
  names: { one: 'task', many: 'tasks' },
  idType: 'integer',
  idRule: integerIdRule,
  schema: taskSchema,
  latest: latestTask,
  // What the schema cannot see: regexes, PDL (with its lookups) and time formats must compile.
  check: (record, ctx) => checkSchemaValidTask(record as unknown as TaskSpec, { lookups: ctx.lookups }),
};
