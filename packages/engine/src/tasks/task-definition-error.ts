import { WeirError } from '../core/errors.ts';

/** Brands TaskDefinitionError instances so they are recognised across realms and package copies. */
export const kTaskDefinitionError: unique symbol = Symbol.for('weir.tasks.definitionError');

/**
 * A task definition that cannot be compiled. `violations` use the resource validation's form
 * (`definition.regex: invalid regular expression "(a": missing closing )`), so the API can list
 * them in its 400 answer next to the schema's.
 */
export class TaskDefinitionError extends WeirError {
  readonly [kTaskDefinitionError] = true;
  readonly code = 'TASK_DEFINITION';
  readonly violations: readonly string[];

  constructor(task: { readonly id: number; readonly name: string }, violations: readonly string[]) {
    super(`task ${task.id} (${task.name}): ${violations.join('; ')}`);
    this.name = 'TaskDefinitionError';
    this.violations = violations;
  }
}

export function isTaskDefinitionError(value: unknown): value is TaskDefinitionError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [kTaskDefinitionError]?: unknown })[kTaskDefinitionError] === true
  );
}

/** Thrown by factories for bad keys; compileTask turns it into a TaskDefinitionError. */
export class DefinitionViolation extends WeirError {
  readonly code = 'DEFINITION_VIOLATION';
  readonly violations: readonly string[];

  constructor(violations: readonly string[]) {
    super(violations.join('; '));
    this.name = 'DefinitionViolation';
    this.violations = violations;
  }

  /** `definition.<key>: <detail>`. */
  static of(key: string, detail: string): DefinitionViolation {
    return new DefinitionViolation([`definition.${key}: ${detail}`]);
  }
}
