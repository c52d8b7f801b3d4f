import type { RawOptions } from '@weir/contract';
import { setOwn } from './event-values.ts';
import type { JsonObject, TaskRecord } from './task-function.ts';

/**
 * The input of the text parsers (PARSE_KV, PARSE_CSV, PARSE_CEF): the record's text, or, for an
 * event, the text in its `rawFieldName` field (the parsed fields are added to that event).
 */
export interface RawInput {
  readonly text: string;
  readonly event: JsonObject;
}

export function rawInput(record: TaskRecord, options: RawOptions, fn: string): RawInput | string {
  const value = record.value;
  if (typeof value === 'string') return { text: value, event: {} };
  const text = Object.hasOwn(value, options.rawFieldName) ? value[options.rawFieldName] : undefined;
  if (typeof text !== 'string') {
    return `${fn} needs text: the record is an event without a text field "${options.rawFieldName}"`;
  }
  return { text, event: value };
}

/** Puts the original text last (tasks.md: "the original text goes to `_raw` when `keepRaw`"), or removes it. */
export function finishRaw(input: RawInput, options: RawOptions): void {
  const has = Object.hasOwn(input.event, options.rawFieldName);
  // deleting first puts `_raw` after the parsed fields; a parsed key of the same name loses to the text
  if (has) delete input.event[options.rawFieldName];
  if (options.keepRaw) setOwn(input.event, options.rawFieldName, input.text);
}
