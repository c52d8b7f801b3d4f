import type { Task } from '@weir/contract';
import { api } from './api.ts';
import { errorText } from './errors.ts';

export interface Step {
  readonly task: Task;
  /** What the task gave for each of its inputs, flattened (an array result is several records). */
  readonly outputs: unknown[];
  /** How many inputs the task dropped (a FILTER, or APPLY_RULES matching nothing). */
  readonly dropped: number;
  readonly error?: string;
}

/**
 * Runs raw text through the tasks one at a time with the task test endpoint
 * (`POST /api/test/tasks/{id}`), each task on the previous task's outputs (an event is passed as its
 * JSON text), and returns every task's output. Stops at the first failing task or when nothing is left.
 */
export async function runSteps(tasks: readonly Task[], raw: string): Promise<Step[]> {
  const steps: Step[] = [];
  let inputs: unknown[] = [raw];
  for (const task of tasks) {
    if (inputs.length === 0) break;
    const outputs: unknown[] = [];
    let dropped = 0;
    try {
      for (const input of inputs) {
        const result: unknown = await api.testTask(task.id, typeof input === 'string' ? input : JSON.stringify(input));
        if (result === null) dropped++;
        else if (Array.isArray(result)) outputs.push(...(result as unknown[]));
        else outputs.push(result);
      }
    } catch (err) {
      steps.push({ task, outputs, dropped, error: errorText(err) });
      break;
    }
    steps.push({ task, outputs, dropped });
    inputs = outputs;
  }
  return steps;
}
