import { configKinds } from '@weir/contract';
import type { ResourceKind } from './resource-kind.ts';

// The stored shape is the API's contract (@weir/contract: resources.ts).
export type { StoredPipeline } from '@weir/contract';

export const pipelineKind: ResourceKind = {
  ...configKinds.pipelines,
  latest: (record) => record,
};
