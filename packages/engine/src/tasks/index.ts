export { compileTask, checkTask, checkSchemaValidTask } from './compile-task.ts';
export { runPipeline } from './pipeline.ts';
export type { PipelineFailure, PipelineResult } from './pipeline.ts';
export { taskFactories } from './registry.ts';
export { taskDefaults } from './definition-defaults.ts';
export { TaskDefinitionError, isTaskDefinitionError, kTaskDefinitionError } from './task-definition-error.ts';
export { compileTimeFormat } from './time-formats.ts';
export type { TimeValueParser } from './time-formats.ts';
export type {
  CompiledTask,
  JsonObject,
  PdlCompiler,
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
