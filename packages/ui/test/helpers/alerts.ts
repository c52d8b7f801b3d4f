import { createHash } from 'node:crypto';
import { kcatProduce } from '@weir/test-helpers/kcat';

export { kcatProduce };

/** One alert of the alerts topic as the engine writes it (docs/alerts.md, "The alert record"). */
export interface AlertSpec {
  readonly key: string;
  readonly rule: string;
  readonly severity: string;
  readonly time: number;
  readonly user?: string;
  readonly host?: string;
  readonly techniques?: string[];
  readonly source?: { topic: string; partition: number; offset: number } | null;
  readonly extra?: Record<string, unknown>;
  readonly alert?: Record<string, unknown>;
}

/** The alert id of a fixture (32 hex digits, as the engine's). */
export const alertIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

export function alertRecord(s: AlertSpec): Record<string, unknown> {
  const techniques = s.techniques ?? ['T1110'];
  return {
    ...(s.user === undefined ? {} : { user: s.user }),
    ...(s.host === undefined ? {} : { host: { name: s.host } }),
    action: 'login',
    _time: s.time,
    ...s.extra,
    _rule: { id: s.rule, name: `Rule ${s.rule}`, annotations: techniques },
    _alert: {
      id: alertIdOf(s.key),
      severity: s.severity,
      techniques,
      time: s.time,
      source: s.source === undefined ? { topic: 'auth-events', partition: 0, offset: 1 } : s.source,
      ...s.alert,
    },
  };
}

/** Alert records produced to the alerts topic with kcat. */
export const produceAlerts = (topic: string, specs: readonly AlertSpec[]) =>
  kcatProduce(
    topic,
    specs.map((s) => JSON.stringify(alertRecord(s))),
  );
