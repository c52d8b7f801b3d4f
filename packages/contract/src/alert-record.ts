import type { FromSchema } from './from-schema.ts';
import { severitySchema } from './severity.ts';
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
