import { domainError } from '../core/errors.ts';
import type { AlertTriage, AlertTriageChange } from '@weir/contract';

/** The triage of an alert nobody has touched. */
export const untriaged: AlertTriage = {
  status: 'new',
  resolution: null,
  assignee: null,
  notes: [],
  updatedBy: null,
  updatedAt: 0,
};

/**
 * A triage change applied to an alert's triage (docs/alerts.md, "The alert store and triage"):
 * closing needs a resolution (given with the change, or kept from before); a resolution is only
 * accepted with `closed`; leaving `closed` clears it. `note` is appended with who and when.
 * Throws VALIDATION naming the field for a change that breaks these rules.
 */
export function applyTriageChange(
  before: AlertTriage,
  change: AlertTriageChange,
  user: string | null,
  now: number,
): AlertTriage {
  const status = change.status ?? before.status;
  if (change.resolution !== undefined && status !== 'closed')
    throw domainError(
      'VALIDATION',
      `body.resolution is only accepted when the alert is closed (status 'closed'); the status would be '${status}'`,
    );
  const resolution = status === 'closed' ? (change.resolution ?? before.resolution) : null;
  if (status === 'closed' && resolution === null)
    throw domainError(
      'VALIDATION',
      'body.resolution is required to close an alert: one of true_positive, false_positive, benign, duplicate, other',
    );
  return {
    status,
    resolution,
    assignee: change.assignee !== undefined ? change.assignee : before.assignee,
    notes: change.note === undefined ? before.notes : [...before.notes, { user, time: now, text: change.note }],
    updatedBy: user,
    updatedAt: now,
  };
}

/** What changed, for the audit entry's detail: `status new → closed, resolution false_positive, note added`. */
export function describeTriageChange(before: AlertTriage, after: AlertTriage): string {
  const parts: string[] = [];
  if (before.status !== after.status) parts.push(`status ${before.status} → ${after.status}`);
  if (before.resolution !== after.resolution) parts.push(`resolution ${after.resolution ?? 'cleared'}`);
  if (before.assignee !== after.assignee) parts.push(`assignee ${after.assignee ?? 'none'}`);
  if (after.notes.length > before.notes.length) parts.push('note added');
  return parts.length > 0 ? parts.join(', ') : 'no change';
}

/** A triage record read from the topic, or undefined when it is not one (another writer's record). */
export function parseTriage(value: Buffer | null): AlertTriage | undefined {
  if (value === null || value.length === 0) return undefined;
  try {
    const v = JSON.parse(value.toString('utf8')) as Partial<AlertTriage>;
    if (typeof v !== 'object' || v === null || !['new', 'acknowledged', 'closed'].includes(v.status as string))
      return undefined;
    return {
      status: v.status!,
      resolution: v.resolution ?? null,
      assignee: v.assignee ?? null,
      notes: Array.isArray(v.notes) ? v.notes : [],
      updatedBy: v.updatedBy ?? null,
      updatedAt: typeof v.updatedAt === 'number' ? v.updatedAt : 0,
    };
  } catch {
    return undefined;
  }
}
