import { DefinitionViolation } from './task-definition-error.ts';
import { eventOf, fieldPath } from './event-values.ts';
import type { TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';
import type { TimeValueParser } from './time-formats.ts';
import { compileTimeFormat } from './time-formats.ts';

interface TimestampDefinition {
  readonly field: string;
  readonly format: string;
  readonly addNewField: boolean;
  readonly timeFieldName: string;
}

/**
 * TIMESTAMP (tasks.md): event → event whose time (the record timestamp, and `timeFieldName` when
 * `addNewField`) is parsed from `field`. A missing or unparseable time falls back to the record
 * timestamp and counts as a task error; the record goes on.
 */
export const timestamp: TaskFactory = (definition, task, env) => {
  const d = definition as unknown as TimestampDefinition;
  let parse: TimeValueParser;
  try {
    parse = compileTimeFormat(d.format);
  } catch (error) {
    throw DefinitionViolation.of(
      'format',
      `${JSON.stringify(d.format)} is not a time format (${(error as Error).message}); ` +
        "use a Java DateTimeFormatter pattern such as yyyy-MM-dd'T'HH:mm:ss.SSSZ, a strftime pattern such as %Y-%m-%d %H:%M:%S, epoch, epoch_millis or iso8601",
    );
  }
  const source = fieldPath(d.field);
  const target = d.addNewField ? fieldPath(d.timeFieldName) : null;
  const now = env.now ?? Date.now;
  const counters = env.counters;
  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const value = source.get(event);
      let time = value === undefined || value === null ? NaN : parse(value, now());
      if (Number.isNaN(time)) {
        time = record.timestamp;
        counters?.taskError?.(
          task,
          value === undefined || value === null
            ? `field "${d.field}" is missing; the record timestamp was used`
            : `field "${d.field}" value ${JSON.stringify(value)} does not match the format "${d.format}"; the record timestamp was used`,
        );
      }
      if (target !== null) target.set(event, time);
      return one({ value: event, timestamp: time });
    },
  };
};
