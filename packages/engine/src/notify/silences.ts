import type { NotifiedAlert } from './matcher.ts';

/**
 * The one question the notifications ask about silences (docs/alerts.md, "Notifications"): is this
 * alert silenced at this time (epoch ms)? A silenced alert is not notified (and counts as done for
 * its offset). The node passes the answer in (NotifyServiceOptions.isSilenced); until silences
 * exist, no alert is silenced.
 */
export type AlertSilenced = (alert: NotifiedAlert, at: number) => boolean;

/** No alert is silenced. */
export const noAlertSilenced: AlertSilenced = () => false;
