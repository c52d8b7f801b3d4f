import type { AlertStatus, Severity } from '@weir/contract';

/** The colour of each severity wherever it shows (rules table, rule editor, alerts). */
export const severityColor: Record<Severity, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  informational: 'gray',
};

/** The colour of an alert's triage status (the Alerts page and an alert's detail). */
export const alertStatusColor: Record<AlertStatus, string> = { new: 'blue', acknowledged: 'yellow', closed: 'gray' };
