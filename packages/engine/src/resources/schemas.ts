import { serdeConfiguration } from '../kafka/serdes.ts';
import { topicNameSchema } from '../kafka/topic-names.ts';
import { integerId, stringId } from './ids.ts';
import { taskFunctionNames, taskFunctions } from '../tasks/task-definitions.ts';

/**
 * JSON Schemas of the four configuration resources in their latest form (spec: Resources and their
 * fields). Earlier forms are turned into the latest one before validation (earlier-forms.ts).
 */

const name = { type: 'string', minLength: 1, maxLength: 256 } as const;
const description = { type: 'string', maxLength: 16384 } as const;
const serde = { type: 'string', enum: serdeConfiguration.serde } as const;
const topicEndpoint = {
  type: 'object',
  properties: { name: topicNameSchema, keySerde: serde, valueSerde: serde },
  required: ['name', 'keySerde', 'valueSerde'],
  additionalProperties: false,
} as const;

export const taskSchema = {
  type: 'object',
  properties: {
    id: integerId, name, description,
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

export const pipelineSchema = {
  type: 'object',
  properties: { id: integerId, name, description, tasks: { type: 'array', items: integerId, maxItems: 1000 } },
  required: ['id', 'name', 'tasks'],
  additionalProperties: false,
} as const;

export const topologySchema = {
  type: 'object',
  properties: {
    id: integerId, name, description,
    pipelines: { type: 'array', items: integerId, maxItems: 1000 },
    enabled: { type: 'boolean' },
    group: { type: 'string', minLength: 1, maxLength: 256 },
    input: topicEndpoint,
    output: { type: 'array', items: topicEndpoint, maxItems: 100 },
  },
  required: ['id', 'name', 'pipelines', 'enabled', 'group', 'input', 'output'],
  additionalProperties: false,
} as const;

export const ruleSchema = {
  type: 'object',
  properties: {
    id: stringId, name, description,
    pdl: { type: 'string', minLength: 1, maxLength: 1024 * 1024 },
    annotations: { type: 'array', items: { type: 'string', maxLength: 1024 }, maxItems: 1000 },
    enabled: { type: 'boolean' },
    /** Earlier form (spec: Versioning): accepted and kept. */
    datamodel: { type: 'string', maxLength: 1024 },
  },
  required: ['id', 'name', 'pdl', 'enabled'],
  additionalProperties: false,
} as const;
