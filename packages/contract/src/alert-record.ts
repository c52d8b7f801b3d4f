import type { FromSchema } from './from-schema.ts';
import { isSeverity, severities, severitySchema, type Severity } from './severity.ts';
import { alertSuppressionSchema } from './suppression.ts';

/**
 * What every record on the alerts topic carries besides the alert itself (docs/alerts.md): the
 * alert is the rule's output plus `_rule` (pdl.md, "Rules and alerts"), as in the topology's
 * outputs; on the alerts topic it also has `_alert`, this record. Its `id` is deterministic: the
 * same input record and rule give the same id on a replay, after a crash or on another node, so
 * duplicates can be recognised.
 */
export const alertMetadataSchema = {
  type: 'object',
  properties: {
    /** 32 hex digits: SHA-256 of the rule id and the source record (or, without one, of the alert). */
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    severity: severitySchema,
    /** ATT&CK technique ids of the rule's annotations (`T1110`, `attack.t1110.001` → `T1110.001`). */
    techniques: { type: 'array', items: { type: 'string' } },
    /** Event time, epoch milliseconds: the alert's `_time` when it has one, else the record timestamp. */
    time: { type: 'number' },
    /** The input record that raised it; null for an alert a correlation window emitted when it closed idle. */
    source: {
      type: ['object', 'null'],
      properties: {
        topic: { type: 'string' },
        partition: { type: 'integer' },
        offset: { type: 'integer' },
      },
      required: ['topic', 'partition', 'offset'],
      additionalProperties: false,
    },
    /** Only on the records of a rule with a suppression (docs/alerts.md, "Suppression"). */
    suppression: alertSuppressionSchema,
  },
  required: ['id', 'severity', 'techniques', 'time', 'source'],
  additionalProperties: false,
} as const;

export type AlertMetadata = FromSchema<typeof alertMetadataSchema>;

/** The key of the alert metadata in an alerts-topic record. */
export const alertMetadataKey = '_alert';

const technique = /^(?:attack\.)?(t\d{4}(?:\.\d{3})?)$/i;

/** The ATT&CK technique ids among a rule's annotations, upper case, each once, in their order. */
export function techniqueIds(annotations: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of annotations) {
    const m = technique.exec(a);
    if (m === null) continue;
    const id = (m[1] as string).toUpperCase();
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * An alerts-topic record as the readers of the topic take it (the alert store, the notifications):
 * its `_alert` fields, its rule, and the whole record.
 */
export interface AlertRead {
  readonly id: string;
  /** Epoch milliseconds, whole. */
  readonly time: number;
  readonly severity: Severity;
  readonly techniques: readonly string[];
  readonly source: AlertMetadata['source'];
  /** `_rule.id` and `_rule.name`; null when the record names none. */
  readonly rule: { readonly id: string | null; readonly name: string | null };
  readonly record: Record<string, unknown>;
}

const alertIdPattern = /^[0-9a-f]{32}$/;

/**
 * The alert of an alerts-topic record (a parsed JSON value), or the reason it is none: not a JSON
 * object, no `_alert` (e.g. written with `weir.output.names=original`), or an `_alert` whose id,
 * time or severity is not as the schema says. Every reader of the topic takes and refuses the same records.
 */
export function readAlert(value: unknown): AlertRead | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the record is not a JSON object';
  const record = value as Record<string, unknown>;
  const meta = record[alertMetadataKey] as Record<string, unknown> | undefined;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return `the record has no ${alertMetadataKey}`;
  const { id, time, severity, techniques, source } = meta;
  if (typeof id !== 'string' || !alertIdPattern.test(id)) return `${alertMetadataKey}.id is not 32 hex digits`;
  if (typeof time !== 'number' || !Number.isFinite(time)) return `${alertMetadataKey}.time is not a number`;
  if (!isSeverity(severity)) return `${alertMetadataKey}.severity is not one of ${severities.join(', ')}`;
  const rule = record['_rule'] as { id?: unknown; name?: unknown } | undefined;
  return {
    id,
    time: Math.trunc(time),
    severity,
    techniques: Array.isArray(techniques) ? techniques.filter((t): t is string => typeof t === 'string') : [],
    source: typeof source === 'object' ? (source as AlertMetadata['source']) : null,
    rule: {
      id: typeof rule?.id === 'string' ? rule.id : null,
      name: typeof rule?.name === 'string' ? rule.name : null,
    },
    record,
  };
}
