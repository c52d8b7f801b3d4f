import { functions } from './functions.ts';

/**
 * PDL's words (docs/pdl.md), written once: the parser reads them, the printer backquotes a field
 * named like one of them, and editors (the UI's) colour and complete them.
 */

/** Words that always have a meaning; a field with such a name must be backquoted. */
export const keywords: ReadonlySet<string> = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'AS',
  'OUTPUT',
  'true',
  'false',
  'null',
]);

/** The commands of a pipeline (the word after a `|`, or the first one). */
export const commands: ReadonlySet<string> = new Set([
  'eval',
  'fields',
  'rename',
  'flatten',
  'lookup',
  'rex',
  'parse_csv',
  'parse_kv',
  'event_count',
  'value_count',
  'value_sum',
  'value_avg',
  'value_percentile',
  'temporal',
]);

/** The words commands take as options or clauses (`fields keep`, `timespan=5m`, `group_by`, `where`, …). */
export const optionWords: ReadonlySet<string> = new Set([
  'keep',
  'remove',
  'timespan',
  'group_by',
  'emit',
  'reset',
  'suppress',
  'ordered',
  'where',
  'if',
  'header',
  'delimiter',
]);

/** The eval functions (`upper(user)`). */
export const functionNames: ReadonlySet<string> = new Set(Object.keys(functions));
