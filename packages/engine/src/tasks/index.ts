export { compileTask, checkTask, checkSchemaValidTask } from './compile-task.ts';
export { resumePipeline, runPipeline } from './pipeline.ts';
export type { PipelineFailure, PipelineResult, PipelineRoute } from './pipeline.ts';
export { taskFactories } from './registry.ts';
export { taskDefaults } from '@weir/contract';
export { TaskDefinitionError, isTaskDefinitionError, kTaskDefinitionError } from './task-definition-error.ts';
export { compileTimeFormat } from './time-formats.ts';
export type { TimeValueParser } from './time-formats.ts';
export type {
  CompiledTask,
  JsonObject,
  PdlCompiler,
  RouteBundleHint,
  RoutedRecord,
  RuleEntry,
  RuleMatcher,
  RuleSkipReason,
  RuleSource,
  TaskCounters,
  TaskEnvironment,
  TaskFactory,
  TaskFunction,
  TaskIdentity,
  TaskRecord,
  TaskResult,
  TaskSpec,
} from './task-function.ts';
