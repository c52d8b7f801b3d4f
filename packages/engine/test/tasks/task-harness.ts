import assert from 'node:assert/strict';
import { compileTask } from '../../src/tasks/compile-task.ts';
import type { CompiledTask, TaskEnvironment, TaskRecord, TaskResult } from '../../src/tasks/task-function.ts';

/** 2023-11-14T22:13:20.000Z: the record timestamp of the tests. */
export const T0 = 1_700_000_000_000;

export function makeTask(fn: string, definition: unknown, env: TaskEnvironment = {}): CompiledTask {
  return compileTask({ id: 7, name: `test ${fn}`, function: fn, definition }, env);
}

export function run(task: CompiledTask, value: TaskRecord['value'], timestamp = T0): TaskResult {
  return task.run({ value, timestamp });
}

/** The one record a task produced. */
export function single(result: TaskResult): TaskRecord {
  if (result.kind === 'error') assert.fail(`expected records, got the task error: ${result.message}`);
  assert.equal(result.kind, 'records');
  assert.equal(result.records.length, 1, 'expected exactly one record');
  return result.records[0] as TaskRecord;
}

/** The value of the one record a task produced. */
export function value(result: TaskResult): TaskRecord['value'] {
  return single(result).value;
}

export function errorOf(result: TaskResult): string {
  assert.equal(result.kind, 'error', 'expected a task error');
  return result.kind === 'error' ? result.message : '';
}

/** The violations of a definition that does not compile. */
export function violations(fn: string, definition: unknown, env: TaskEnvironment = {}): readonly string[] {
  try {
    makeTask(fn, definition, env);
  } catch (error) {
    return (error as { violations: readonly string[] }).violations;
  }
  assert.fail('expected the definition to be rejected');
}
