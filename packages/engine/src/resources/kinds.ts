import { pipelineKind } from './pipeline.ts';
import type { ResourceKind } from './resource-kind.ts';
import { ruleKind } from './rule.ts';
import { taskKind } from './task.ts';
import { topologyKind } from './topology.ts';

export type { CheckContext, ConfigRecord, ResourceKind } from './resource-kind.ts';

/**
 * The configuration resources served by ConfigResource (spec: Tasks, pipelines, topologies, rules),
 * one module each (schema, stored type, latest form, checks). Lookups are the fifth resource,
 * fed by file uploads: ./lookup.ts.
 */
export const resourceKinds: readonly ResourceKind[] = [taskKind, pipelineKind, topologyKind, ruleKind];
