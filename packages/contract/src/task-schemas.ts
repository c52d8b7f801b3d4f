import type { FromSchema } from './from-schema.ts';

/**
 * The definition schema of every task function (../shared/spec/tasks.md). Unknown keys are
 * rejected; `delimeter`, a misspelling the original's own examples use, is accepted for
 * `delimiter` (the engine's latestTask renames it before validation). Defaults are applied by the runtime,
 * not stored, so a stored task is what was submitted.
 */
const str = { type: 'string' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const bool = { type: 'boolean' } as const;
const raw = { keepRaw: bool, rawFieldName: nonEmpty } as const;

function definition(properties: Record<string, object>, required: readonly string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false } as const;
}

export const taskFunctions = {
  TIMESTAMP: definition({ field: nonEmpty, format: nonEmpty, addNewField: bool, timeFieldName: nonEmpty }, ['field']),
  PARSE_KV: definition({ delimiter: nonEmpty, ...raw }),
  PARSE_CSV: definition({ fieldNames: nonEmpty, delimiter: nonEmpty, ...raw }, ['fieldNames']),
  PARSE_CEF: definition({ ...raw }),
  EXTRACT: definition({ regex: nonEmpty, field: nonEmpty, ...raw }, ['regex']),
  FILTER: definition(
    {
      type: { type: 'string', enum: ['regex', 'pdl'] },
      value: str,
      action: { type: 'string', enum: ['keep', 'drop'] },
    },
    ['type', 'value'],
  ),
  EVAL: definition(
    {
      eval: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            condition: str,
            action: { type: 'string', enum: ['rename', 'set', 'remove'] },
            field: nonEmpty,
            value: str,
          },
          required: ['action', 'field'],
          additionalProperties: false,
          // rename and set need a value (the new name, or the expression to set).
          if: { properties: { action: { enum: ['rename', 'set'] } }, required: ['action'] },
          then: { required: ['value'] },
        },
      },
    },
    ['eval'],
  ),
  PDL_EXPRESSION: definition({ pdl: nonEmpty }, ['pdl']),
  APPLY_RULES: definition({ rules: { type: 'array', items: nonEmpty }, matchAll: bool }, ['rules']),
  OUTPUT_FIELD: definition({ field: nonEmpty }, ['field']),
} as const;

export type TaskFunction = keyof typeof taskFunctions;
export const taskFunctionNames = Object.keys(taskFunctions) as TaskFunction[];
/** The definition of each task function, from the schema the API validates it with. */
export type TaskDefinitions = { [F in TaskFunction]: FromSchema<(typeof taskFunctions)[F]> };
