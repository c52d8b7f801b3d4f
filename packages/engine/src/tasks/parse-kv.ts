import type { RawOptions } from '@weir/contract';
import { fromText, setOwn } from './event-values.ts';
import { finishRaw, rawInput } from './raw-text.ts';
import type { JsonObject, TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';
import { parseKeyValues } from '@weir/pdl';

interface ParseKvDefinition extends RawOptions {
  readonly delimiter: string;
}

/** PARSE_KV (tasks.md; pdl.md "parse_kv"): text → event with one field per `key<delimiter>value` pair. */
export const parseKv: TaskFactory = (definition) => {
  const d = definition as unknown as ParseKvDefinition;
  const emit = (target: JsonObject, key: string, value: string): void => setOwn(target, key, fromText(value));
  return {
    run(record) {
      const input = rawInput(record, d, 'PARSE_KV');
      if (typeof input === 'string') return failure(input);
      parseKeyValues(input.text, d.delimiter, emit, input.event);
      finishRaw(input, d);
      return one({ value: input.event, timestamp: record.timestamp });
    },
  };
};
