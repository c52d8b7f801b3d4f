import { eventOf, fieldPath, valueText } from './event-values.ts';
import type { TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';

interface OutputFieldDefinition {
  readonly field: string;
}

/** OUTPUT_FIELD (tasks.md): event → text, the field's value (objects and arrays as JSON). A missing field is a task error. */
export const outputField: TaskFactory = (definition) => {
  const d = definition as unknown as OutputFieldDefinition;
  const field = fieldPath(d.field);
  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const value = field.get(event);
      if (value === undefined) return failure(`field "${d.field}" is missing; OUTPUT_FIELD needs it to build the text`);
      return one({ value: valueText(value), timestamp: record.timestamp });
    },
  };
};
