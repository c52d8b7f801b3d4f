import { compileUserRegex } from '@weir/pdl';
import type { UserRegex } from '@weir/pdl';
import type { RawOptions } from './definition-defaults.ts';
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
    throw DefinitionViolation.of(key, `${(error as Error).message}; use RE2 syntax (no look-arounds or back-references)`);
  }
}

/**
 * EXTRACT (tasks.md): text or event → event with one field per named group of the first match
 * (captured canonical numerals become numbers, as PDL `rex`). Text becomes `{_raw: text}` (when
 * `keepRaw`) and is matched itself; an event's `field` is matched. No match: no new fields.
 */
export const extract: TaskFactory = (definition) => {
  const d = definition as unknown as ExtractDefinition;
  const regex = definitionRegex('regex', d.regex);
  if (regex.groupNames.length === 0) {
    throw DefinitionViolation.of('regex', `${JSON.stringify(d.regex)} has no named group; name what to extract, e.g. "user=(?<user>\\w+)"`);
  }
  const source = fieldPath(d.field);
  return {
    run(record) {
      let text: unknown;
      let event: JsonObject;
      if (typeof record.value === 'string') {
        text = record.value;
        event = {};
        if (d.keepRaw) setOwn(event, d.rawFieldName, text);
      } else {
        event = record.value;
        text = source.get(event);
        if (typeof text === 'number' || typeof text === 'boolean') text = String(text);
      }
      const groups = typeof text === 'string' ? regex.namedGroups(text) : null;
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
