/**
 * The entity of an alert: who and what it is about, as the triage list shows it (docs/ui.md,
 * "Alerts"). A rule that suppresses names its entity itself (`_alert.suppression.fields`, the values
 * it suppressed on); otherwise the first user field and the first host field the record has, from
 * the common names of ECS, Sysmon/Windows and flat key=value logs.
 */
export const userFields = ['user.name', 'user', 'username', 'TargetUserName', 'SubjectUserName'] as const;
export const hostFields = [
  'host.name',
  'host.hostname',
  'host',
  'hostname',
  'Computer',
  'source.ip',
  'src_ip',
] as const;

export interface EntityField {
  readonly path: string;
  readonly value: string;
}

/**
 * A scalar field of a record by dotted path, as the API's `field.<path>` filter and the silences read
 * it: nested keys, or a key that itself holds the dots (flattened records). Text for strings,
 * numbers and booleans; undefined for a missing field, null, an object or an array.
 */
export function fieldText(record: unknown, path: string): string | undefined {
  const scalar = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const obj = record as Record<string, unknown>;
  if (path in obj) return scalar(obj[path]);
  const dot = path.indexOf('.');
  return dot < 0 ? undefined : fieldText(obj[path.slice(0, dot)], path.slice(dot + 1));
}

/** The suppression fields of the record (with a value), else its first user and first host field. */
export function alertEntity(record: Record<string, unknown>): EntityField[] {
  const suppression = (record._alert as { suppression?: { fields?: unknown } } | undefined)?.suppression;
  const fields = suppression?.fields;
  if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
    const named = Object.entries(fields as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
      .map(([path, v]) => ({ path, value: String(v) }));
    if (named.length > 0) return named;
  }
  return [userFields, hostFields].flatMap((paths) => {
    for (const path of paths) {
      const value = fieldText(record, path);
      if (value !== undefined && value !== '') return [{ path, value }];
    }
    return [];
  });
}
