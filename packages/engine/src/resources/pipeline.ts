import { integerId, integerIdRule } from './ids.ts';
import { descriptionField, nameField, type ResourceKind } from './resource-kind.ts';

/** A pipeline as stored (spec: Pipeline): task ids in the order they run. */
export interface StoredPipeline {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
  readonly tasks: readonly number[];
}

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

export const pipelineKind: ResourceKind = {
  path: 'pipelines',
  collection: 'pipelines',
  names: { one: 'pipeline', many: 'pipelines' },
  idType: 'integer',
  idRule: integerIdRule,
  schema: pipelineSchema,
  latest: (record) => record,
};
