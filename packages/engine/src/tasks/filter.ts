import { eventOf } from './event-values.ts';
import { definitionRegex } from './extract.ts';
import { definitionPdl } from './pdl-programs.ts';
import type { TaskFactory, TaskRecord } from './task-function.ts';
import { failure, nothing, one } from './task-results.ts';

interface FilterDefinition {
  readonly type: 'regex' | 'pdl';
  readonly value: string;
  readonly action: 'keep' | 'drop';
}

/** The text a FILTER regex reads: the record's text; for an event, its `_raw` when it is text, else its JSON. */
function filterText(record: TaskRecord): string {
  const value = record.value;
  if (typeof value === 'string') return value;
  const raw = Object.hasOwn(value, '_raw') ? value['_raw'] : undefined;
  return typeof raw === 'string' ? raw : JSON.stringify(value);
}

/**
 * FILTER (tasks.md): passes the record unchanged when it matches (`keep`) or when it does not
 * (`drop`). `regex` searches the text; `pdl` holds when the PDL yields an event.
 */
export const filter: TaskFactory = (definition, _task, env) => {
  const d = definition as unknown as FilterDefinition;
  const keepWhenMatched = d.action === 'keep';
  if (d.type === 'regex') {
    const regex = definitionRegex('value', d.value);
    return {
      run: (record) => (regex.test(filterText(record)) === keepWhenMatched ? one(record) : nothing),
    };
  }
  const query = definitionPdl('value', d.value, env);
  return {
    run(record) {
      const event = eventOf(record);
      if (typeof event === 'string') return failure(event);
      const matched = query.run(event, { timestamp: record.timestamp }) !== null;
      return matched === keepWhenMatched ? one(record) : nothing;
    },
  };
};
