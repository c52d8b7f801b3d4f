import { latestTask } from '../resources/earlier-forms.ts';
import { taskFunctionNames, taskFunctions } from '../resources/task-definitions.ts';
import type { TaskFunction } from '../resources/task-definitions.ts';
import type { Validator } from '../resources/validation.ts';
import { compileValidator } from '../resources/validation.ts';
import { taskDefaults } from './definition-defaults.ts';
import { isObject } from './event-values.ts';
import { taskFactories } from './registry.ts';
import { DefinitionViolation, TaskDefinitionError, isTaskDefinitionError } from './task-definition-error.ts';
import type { CompiledTask, JsonObject, TaskEnvironment, TaskIdentity, TaskSpec } from './task-function.ts';

const validators = new Map<TaskFunction, Validator>();

function validatorOf(fn: TaskFunction): Validator {
  let validate = validators.get(fn);
  if (validate === undefined) {
    validate = compileValidator(taskFunctions[fn]);
    validators.set(fn, validate);
  }
  return validate;
}

const isTaskFunction = (name: string): name is TaskFunction => Object.hasOwn(taskFunctions, name);

/**
 * Compiles a task once: the definition is brought to its latest form (`delimeter` → `delimiter`),
 * checked against its function's schema, completed with the defaults of tasks.md and turned into
 * a closure. Throws TaskDefinitionError listing every violation (`definition.format: …`).
 */
export function compileTask(task: TaskSpec, env: TaskEnvironment = {}): CompiledTask {
  const fn = task.function;
  if (!isTaskFunction(fn)) {
    throw new TaskDefinitionError(task, [`function: ${JSON.stringify(fn)} is not a task function; accepted: ${taskFunctionNames.join(', ')}`]);
  }
  const latest = latestTask({ definition: task.definition ?? {} }).definition;
  if (!isObject(latest)) throw new TaskDefinitionError(task, ['definition: must be an object']);
  const violations = validatorOf(fn)(latest).map((v) => (v.startsWith('(record)') ? `definition${v.slice('(record)'.length)}` : `definition.${v}`));
  if (violations.length > 0) throw new TaskDefinitionError(task, violations);
  const identity: TaskIdentity = { id: task.id, name: task.name, function: fn };
  const definition: JsonObject = { ...taskDefaults[fn], ...latest };
  try {
    const compiled = taskFactories[fn](definition, identity, env);
    const out: CompiledTask = { ...identity, run: compiled.run };
    if (compiled.advanceTime !== undefined) out.advanceTime = compiled.advanceTime;
    if (compiled.resume !== undefined) out.resume = compiled.resume;
    if (compiled.advanceBy !== undefined) out.advanceBy = compiled.advanceBy;
    return out;
  } catch (error) {
    if (error instanceof DefinitionViolation) throw new TaskDefinitionError(task, error.violations);
    throw error;
  }
}

/**
 * What a saved task would fail on beyond its schema (regex, PDL, time format), in the resource
 * validation's words; empty when it compiles. For the task resource's save-time check.
 */
export function checkTask(task: TaskSpec, env: TaskEnvironment = {}): string[] {
  try {
    compileTask(task, env);
    return [];
  } catch (error) {
    if (isTaskDefinitionError(error)) return [...error.violations];
    throw error;
  }
}
