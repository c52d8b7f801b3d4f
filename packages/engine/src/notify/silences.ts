import { alertMetadataKey, type StoredSilence } from '@weir/contract';
import { silencesMatching } from '../silences/silence-match.ts';
import type { NotifiedAlert } from './matcher.ts';

/**
 * The one question the notifications ask about silences (docs/alerts.md, "Notifications"): is this
 * alert silenced at this time (epoch ms)? A silenced alert is not notified (and counts as done for
 * its offset).
 */
export type AlertSilenced = (alert: NotifiedAlert, at: number) => boolean;

/** No alert is silenced. */
export const noAlertSilenced: AlertSilenced = () => false;

/**
 * Silenced by the stored silences (docs/alerts.md, "Silences"): a silence whose matchers all hold
 * for the record and which is active when the alert is delivered (`at`) or at the alert's own time
 * (`_alert.time`), as the alert store marks it. `silences` is read per alert, so a silence made or
 * expired takes effect for the next delivery.
 */
export function silencedBy(silences: () => readonly StoredSilence[]): AlertSilenced {
  return (alert, at) => {
    const all = silences();
    if (all.length === 0) return false;
    if (silencesMatching(alert.record, all, at).length > 0) return true;
    const time = (alert.record[alertMetadataKey] as { time?: unknown } | undefined)?.time;
    return typeof time === 'number' && silencesMatching(alert.record, all, time).length > 0;
  };
}
