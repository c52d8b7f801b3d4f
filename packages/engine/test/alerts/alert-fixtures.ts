import { createHash } from 'node:crypto';
import type { AlertTriage } from '@weir/contract';
import type { TopicRecord } from '../../src/alerts/alert-index.ts';
import { untriaged } from '../../src/alerts/triage.ts';

export interface AlertSpec {
  readonly n: number;
  readonly rule?: string;
  readonly severity?: string;
  readonly techniques?: string[];
  readonly time?: number;
  readonly user?: string;
  readonly extra?: Record<string, unknown>;
}

/** The deterministic-looking id of the fixture alert number `n` (32 hex digits). */
export const alertId = (n: number) => createHash('sha256').update(`alert-${n}`).digest('hex').slice(0, 32);

/** A triage state: closed as benign by `u` (what the triage topic would carry). */
export const closedBenign: AlertTriage = {
  ...untriaged,
  status: 'closed',
  resolution: 'benign',
  updatedBy: 'u',
  updatedAt: 1,
};

/** An alerts-topic record as the engine writes it (docs/alerts.md), as a JSON object. */
export function alertRecord(spec: AlertSpec): Record<string, unknown> {
  const rule = spec.rule ?? 'failed-login';
  const time = spec.time ?? 1_700_000_000_000 + spec.n * 1000;
  return {
    user: spec.user ?? `u${spec.n}`,
    action: 'login',
    _raw: `user=${spec.user ?? `u${spec.n}`} action=login n=${spec.n}`,
    _time: time,
    ...spec.extra,
    _rule: { id: rule, name: `Rule ${rule}`, annotations: spec.techniques ?? ['T1110'] },
    _alert: {
      id: alertId(spec.n),
      severity: spec.severity ?? 'medium',
      techniques: spec.techniques ?? ['T1110'],
      time,
      source: { topic: 'auth', partition: 0, offset: spec.n },
    },
  };
}

/** Fixture alerts as records of partition 0 from `offset` on. */
export function alertRecords(specs: readonly AlertSpec[], offset = 0): TopicRecord[] {
  return specs.map((spec, i) => ({
    partition: 0,
    offset: offset + i,
    value: Buffer.from(JSON.stringify(alertRecord(spec))),
  }));
}
