import { compileUserRegex } from '@weir/pdl';
import type { UserRegex } from '@weir/pdl';
import type { RawOptions } from '@weir/contract';
import { DefinitionViolation } from './task-definition-error.ts';
import { fieldPath, fromText, setOwn } from './event-values.ts';
import type { JsonObject, TaskFactory } from './task-function.ts';
import { one } from './task-results.ts';

interface ExtractDefinition extends RawOptions {
  readonly regex: string;
  readonly field: string;
}

/** Compiles a user regex (RE2 syntax, linear time) or reports it against `key`. */
export function definitionRegex(key: string, pattern: string): UserRegex {
  try {
    return compileUserRegex(pattern);
  } catch (error) {
    throw DefinitionViolation.of(
      key,
      `${(error as Error).message}; use RE2 syntax (no look-arounds or back-references)`,
    );
  }
}

/** The JSON object a text holds, or undefined (not JSON, or not an object). */
function jsonObject(text: string): JsonObject | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * EXTRACT (tasks.md): text or event → event with one field per named group of the first match
 * (captured canonical numerals become numbers, as PDL `rex`). Text becomes `{_raw: text}` (when
 * `keepRaw`) and is matched itself; an event's `field` is matched, and so is the `field` of text
 * that is a JSON object holding `field` (read as that event, which keeps its other fields). No
 * match: no new fields. A regex without named groups (the original's own example) extracts nothing: records pass
 * unchanged (text becomes `{_raw: text}`).
 */
export const extract: TaskFactory = (definition) => {
  const d = definition as unknown as ExtractDefinition;
  const regex = definitionRegex('regex', d.regex);
  const source = fieldPath(d.field);
  return {
    run(record) {
      let text: unknown;
      let event: JsonObject | undefined;
      if (typeof record.value === 'string') {
        event = jsonObject(record.value);
        if (event === undefined || source.get(event) === undefined) {
          text = record.value;
          event = {};
          if (d.keepRaw) setOwn(event, d.rawFieldName, text);
        } else {
          text = source.get(event);
        }
      } else {
        event = record.value;
        text = source.get(event);
      }
      if (typeof text === 'number' || typeof text === 'boolean') text = String(text);
      const groups = regex.groupNames.length > 0 && typeof text === 'string' ? regex.namedGroups(text) : null;
      if (groups !== null) {
        for (const name of regex.groupNames) {
          const value = groups[name];
          if (value !== undefined) setOwn(event, name, fromText(value));
        }
      }
      return one({ value: event, timestamp: record.timestamp });
    },
  };
};
