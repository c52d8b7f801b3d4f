import type { TaskFunction } from '@weir/contract';
import { applyRules } from './apply-rules.ts';
import { evalTask } from './eval.ts';
import { extract } from './extract.ts';
import { filter } from './filter.ts';
import { outputField } from './output-field.ts';
import { parseCef } from './parse-cef.ts';
import { parseCsv } from './parse-csv.ts';
import { parseKv } from './parse-kv.ts';
import { pdlExpression } from './pdl-expression.ts';
import type { TaskFactory } from './task-function.ts';
import { timestamp } from './timestamp.ts';

/** Every task function of tasks.md by name; the type makes a missing one a compile error. */
export const taskFactories: Readonly<Record<TaskFunction, TaskFactory>> = {
  TIMESTAMP: timestamp,
  PARSE_KV: parseKv,
  PARSE_CSV: parseCsv,
  PARSE_CEF: parseCef,
  EXTRACT: extract,
  FILTER: filter,
  EVAL: evalTask,
  PDL_EXPRESSION: pdlExpression,
  APPLY_RULES: applyRules,
  OUTPUT_FIELD: outputField,
};
