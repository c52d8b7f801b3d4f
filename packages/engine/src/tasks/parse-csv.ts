import type { RawOptions } from '@weir/contract';
import { DefinitionViolation } from './task-definition-error.ts';
import { fromText, setOwn } from './event-values.ts';
import { finishRaw, rawInput } from './raw-text.ts';
import type { TaskFactory } from './task-function.ts';
import { failure, one } from './task-results.ts';
import { splitCsv } from '@weir/pdl';

interface ParseCsvDefinition extends RawOptions {
  readonly fieldNames: string;
  readonly delimiter: string;
}

/**
 * PARSE_CSV (tasks.md; pdl.md "parse_csv"): text → event, cells (trimmed, quotes honoured) assigned
 * to `fieldNames` in order. Extra cells are ignored; missing cells leave the field unset.
 */
export const parseCsv: TaskFactory = (definition) => {
  const d = definition as unknown as ParseCsvDefinition;
  const names = splitCsv(d.fieldNames, ',');
  if (names.every((name) => name === '')) {
    throw DefinitionViolation.of(
      'fieldNames',
      `${JSON.stringify(d.fieldNames)} names no field; give comma-separated names such as "time, user, action"`,
    );
  }
  return {
    run(record) {
      const input = rawInput(record, d, 'PARSE_CSV');
      if (typeof input === 'string') return failure(input);
      const cells = splitCsv(input.text, d.delimiter);
      const count = Math.min(cells.length, names.length);
      for (let i = 0; i < count; i++) {
        const name = names[i] as string;
        if (name !== '') setOwn(input.event, name, fromText(cells[i] as string));
      }
      finishRaw(input, d);
      return one({ value: input.event, timestamp: record.timestamp });
    },
  };
};
