import type { TaskRecord, TaskResult } from './task-function.ts';

/** The shapes of TaskResult, built in one place. */

/** Nothing goes further (FILTER dropped the record, APPLY_RULES found no match). */
export const nothing: TaskResult = Object.freeze({ kind: 'records', records: Object.freeze([]) });

export function one(record: TaskRecord): TaskResult {
  return { kind: 'records', records: [record] };
}

export function failure(message: string): TaskResult {
  return { kind: 'error', message };
}
