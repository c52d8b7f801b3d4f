import { createHash } from 'node:crypto';

const severities = ['informational', 'low', 'medium', 'high', 'critical'];
export const day = 86_400_000;
/** The first event time of the bench's alerts. */
export const T0 = Date.UTC(2026, 10, 19);

/**
 * Alert `n` of `count` as the stream writes it: the event, `_rule` and `_alert` (docs/alerts.md);
 * 50 rules (a rule's alerts share its severity, as the engine writes them), 1,000 users, 200 hosts,
 * event times over seven days.
 */
export function alertRecord(n: number, count: number): string {
  const rule = `r${n % 50}`;
  const time = T0 + Math.floor((n / count) * 7 * day);
  return JSON.stringify({
    user: `u${(n * 7) % 1000}`,
    host: `host-${n % 200}`,
    action: 'login',
    status: 'failed',
    _raw: `user=u${(n * 7) % 1000} host=host-${n % 200} action=login status=failed`,
    _time: time,
    _rule: { id: rule, name: `Rule ${rule}`, annotations: ['T1110'] },
    _alert: {
      id: createHash('sha256').update(String(n)).digest('hex').slice(0, 32),
      severity: severities[(n % 50) % 5],
      techniques: ['T1110'],
      time,
      source: { topic: 'auth', partition: n % 2, offset: Math.floor(n / 2) },
    },
  });
}
