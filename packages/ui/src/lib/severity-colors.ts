import type { Severity } from '@weir/contract';

/** The colour of each severity wherever it shows (rules table, rule editor, alerts). */
export const severityColor: Record<Severity, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  informational: 'gray',
};
