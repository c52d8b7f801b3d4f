import { configKinds } from '@weir/contract';
import { checkSchemaValidTask, type TaskSpec } from '../tasks/index.ts';
import { latestTask } from '../tasks/task-definitions.ts';
import type { ResourceKind } from './resource-kind.ts';

// The stored shape is the API's contract (@weir/contract: resources.ts).
export type { StoredTask } from '@weir/contract';

export const taskKind: ResourceKind = {
  ...configKinds.tasks,
  latest: latestTask,
  // What the schema cannot see: regexes, PDL (with its lookups) and time formats must compile.
  check: (record, ctx) => checkSchemaValidTask(record as unknown as TaskSpec, { lookups: ctx.lookups }),
};
