import { hash } from 'node:crypto';
import { closedWith, jsonBytes, type JsonBytes } from './record-codec.ts';
import { alertMetadataKey, severityOf, techniqueIds, type AlertMetadata } from '@weir/contract';
import { outputNames } from '@weir/pdl';
import type { RuleEntry, TaskRecord } from '../../tasks/index.ts';
import type { SourceRecord } from '../records.ts';

/** A rule's severity and techniques, worked out once per rule entry (a changed rule is a new entry), not per alert. */
const ruleMetadataCache = new WeakMap<RuleEntry, Pick<AlertMetadata, 'severity' | 'techniques'>>();

function ruleMetadata(rule: RuleEntry): Pick<AlertMetadata, 'severity' | 'techniques'> {
  let m = ruleMetadataCache.get(rule);
  if (m === undefined)
    ruleMetadataCache.set(rule, (m = { severity: severityOf(rule), techniques: techniqueIds(rule.annotations) }));
  return m;
}

/**
 * An alert as the alerts topic gets it (docs/alerts.md): the alert (the rule's output plus `_rule`)
 * with `_alert` added: a deterministic id, the rule's severity and ATT&CK techniques, the event time
 * and the input record it came from (not with `weir.output.names=original`: there the record stays
 * the original product's). `ordinal` numbers the alerts one rule raised for one record
 * (0 for the first), so that two alerts of one record and rule keep distinct ids. A suppressed
 * rule's alert carries its suppression window's id and `_alert.suppression` (`alertOverride`).
 * `bytes`: the JSON bytes of the record's events already serialised (encodeValue's).
 */
export function alertRecordValue(
  alert: TaskRecord,
  source: SourceRecord | undefined,
  ordinal: number,
  bytes?: JsonBytes,
): Buffer {
  const json =
    typeof alert.value === 'string' ? Buffer.from(JSON.stringify(alert.value), 'utf8') : jsonBytes(alert.value, bytes);
  const rule = alert.rule;
  // the original's output names: its alerts topic keeps the original's record, field for field
  if (rule === undefined || typeof alert.value !== 'object' || json.length < 2 || outputNames() === 'original')
    return json;
  const time = alert.value['_time'];
  // a suppressed rule's alert (rules/rule-suppression.ts): its window's id and suppression, and its own source when written later
  const override = alert.alertOverride;
  const metadata: AlertMetadata = {
    // the alert's JSON is part of the id only without a source record (as text: made only then)
    id: override ? override.id : alertId(rule.id, source, ordinal, source ? '' : json.toString('utf8')),
    ...ruleMetadata(rule),
    time: typeof time === 'number' && Number.isFinite(time) ? time : alert.timestamp,
    source:
      override?.source !== undefined
        ? override.source
        : source
          ? { topic: source.topic, partition: source.partition, offset: Number(source.offset) }
          : null,
    ...(override ? { suppression: override.suppression } : {}),
  };
  // an alert of a rule over alerts may hold its source alert's: replaced, in place
  if (Object.hasOwn(alert.value, alertMetadataKey))
    return Buffer.from(JSON.stringify({ ...alert.value, [alertMetadataKey]: metadata }));
  // else the metadata goes last, written after the alert's own JSON bytes (no copy of the alert object, no text of it)
  const close = json.length === 2 ? '' : ',';
  return closedWith(json, `${close}"${alertMetadataKey}":${JSON.stringify(metadata)}}`);
}

/**
 * SHA-256 (first 32 hex digits) of the rule id and the source record's coordinates and the
 * ordinal; without a source record (a window closed idle), of the rule id and the alert's JSON.
 */
export function alertId(ruleId: string, source: SourceRecord | undefined, ordinal: number, json: string): string {
  // one string hashed at once: the same bytes (UTF-8) as the rule id and the rest hashed one after the other
  const data = source
    ? `${ruleId}\u0000${source.topic}\u0000${source.partition}\u0000${source.offset}\u0000${ordinal}`
    : `${ruleId}\u0000${json}`;
  return hash('sha256', data, 'hex').slice(0, 32);
}

/** How many alerts of the same rule come before `alerts[i]` (one record's alerts, as raised). */
export function ordinalOf(alerts: readonly TaskRecord[], i: number): number {
  const rule = alerts[i]!.rule;
  let n = 0;
  for (let j = 0; j < i; j++) if (alerts[j]!.rule === rule) n++;
  return n;
}
