import type { TaskFunction } from './task-schemas.ts';

/**
 * The documented defaults of every definition key (tasks.md). The stored task keeps what was
 * submitted; the engine's compileTask applies these before the factory runs, and the UI's task
 * forms show them.
 */
export const taskDefaults = {
  TIMESTAMP: { format: "yyyy-MM-dd'T'HH:mm:ss.SSSZ", addNewField: true, timeFieldName: '_time' },
  PARSE_KV: { delimiter: '=', keepRaw: true, rawFieldName: '_raw' },
  PARSE_CSV: { delimiter: ',', keepRaw: true, rawFieldName: '_raw' },
  PARSE_CEF: { keepRaw: true, rawFieldName: '_raw' },
  EXTRACT: { field: '_raw', keepRaw: true, rawFieldName: '_raw' },
  FILTER: { action: 'keep' },
  EVAL: {},
  PDL_EXPRESSION: {},
  APPLY_RULES: { matchAll: true },
  OUTPUT_FIELD: {},
} as const satisfies Record<TaskFunction, object>;

/** The definition keys every text parser shares. */
export interface RawOptions {
  readonly keepRaw: boolean;
  readonly rawFieldName: string;
}
