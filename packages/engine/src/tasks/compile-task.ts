import { taskDefaults, type TaskFunction, taskFunctionNames, taskFunctions } from '@weir/contract';
import { latestTask } from './task-definitions.ts';
import type { Validator } from '../validation/json-schema.ts';
import { compileValidator } from '../validation/json-schema.ts';
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
    throw new TaskDefinitionError(task, [
      `function: ${JSON.stringify(fn)} is not a task function; accepted: ${taskFunctionNames.join(', ')}`,
    ]);
  }
  const latest = latestTask({ definition: task.definition ?? {} }).definition;
  if (!isObject(latest)) throw new TaskDefinitionError(task, ['definition: must be an object']);
  const violations = validatorOf(fn)(latest).map((v) =>
    v.startsWith('(record)') ? `definition${v.slice('(record)'.length)}` : `definition.${v}`,
  );
  if (violations.length > 0) throw new TaskDefinitionError(task, violations);
  return instantiate(task, fn, latest, env);
}

/** Defaults of tasks.md + the function's factory, over a definition already in its latest, valid form. */
function instantiate(task: TaskSpec, fn: TaskFunction, latest: JsonObject, env: TaskEnvironment): CompiledTask {
  const identity: TaskIdentity = { id: task.id, name: task.name, function: fn };
  const definition: JsonObject = { ...taskDefaults[fn], ...latest };
  try {
    const compiled = taskFactories[fn](definition, identity, env);
    const out: CompiledTask = { ...identity, run: compiled.run };
    if (compiled.advanceTime !== undefined) out.advanceTime = compiled.advanceTime;
    if (compiled.resume !== undefined) out.resume = compiled.resume;
    if (compiled.advanceBy !== undefined) out.advanceBy = compiled.advanceBy;
    if (compiled.holdsCorrelation !== undefined) out.holdsCorrelation = compiled.holdsCorrelation;
    if (compiled.prepare !== undefined) out.prepare = compiled.prepare;
    return out;
  } catch (error) {
    if (error instanceof DefinitionViolation) throw new TaskDefinitionError(task, error.violations);
    throw error;
  }
}

/** Everything compileTask would refuse, as violations (`definition.format: …`); empty when the task compiles. */
export function checkTask(task: TaskSpec, env: TaskEnvironment = {}): string[] {
  return violationsOf(() => compileTask(task, env));
}

/**
 * What a saved task would fail on beyond its schema (regex, PDL, time format), in the resource
 * validation's words; empty when it compiles. For the task resource's save-time check: the record
 * has already passed the task schema (which holds every function's definition schema) and is in
 * its latest form, so its definition is not validated a second time.
 */
export function checkSchemaValidTask(task: TaskSpec, env: TaskEnvironment = {}): string[] {
  return violationsOf(() =>
    instantiate(task, task.function as TaskFunction, (task.definition ?? {}) as JsonObject, env),
  );
}

function violationsOf(compile: () => unknown): string[] {
  try {
    compile();
    return [];
  } catch (error) {
    if (isTaskDefinitionError(error)) return [...error.violations];
    throw error;
  }
}
