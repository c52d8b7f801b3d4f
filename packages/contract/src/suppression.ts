/**
 * A rule's alert suppression (docs/alerts.md, "Suppression"): of the alerts the rule raises, the
 * first of each combination of values of `fields` in each `window` of event time is written, the
 * others are counted on it.
 */

/**
 * Milliseconds per unit of a duration written as a whole number and a unit (`30s`, `5m`, `2h`, `1d`,
 * `1w`), as PDL's timespans (`timespan=5m`) read them: suppression windows, and silence lengths in
 * weirctl and the console.
 */
export const durationUnitsMs = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A suppression window: a positive whole number and a unit, as PDL writes a timespan (`30s`, `5m`, `1h`, `1d`, `1w`). */
export const suppressionWindowPattern = '^[1-9][0-9]{0,8}[smhdw]$';

/** A field path, dots for nesting as PDL names fields (`user.name`): no empty segment. */
export const suppressionFieldPattern = '^[^.]+(\\.[^.]+)*$';

export const suppressionSchema = {
  type: 'object',
  properties: {
    fields: {
      type: 'array',
      items: { type: 'string', maxLength: 1024, pattern: suppressionFieldPattern },
      minItems: 1,
      maxItems: 16,
      uniqueItems: true,
    },
    window: { type: 'string', pattern: suppressionWindowPattern },
  },
  required: ['fields', 'window'],
  additionalProperties: false,
} as const;

/** The window in milliseconds (`5m` → 300000); throws on text that does not match the pattern. */
export function suppressionWindowMs(window: string): number {
  if (!new RegExp(suppressionWindowPattern).test(window)) throw new Error(`not a suppression window: ${window}`);
  return Number(window.slice(0, -1)) * durationUnitsMs[window.slice(-1) as keyof typeof durationUnitsMs];
}

/**
 * What an alerts-topic record of a suppressing rule carries in `_alert.suppression`: the window
 * (epoch-aligned, `[start, end)` in event time), the values it is kept for, how many alerts of it
 * were suppressed so far (0 on the record written at once) and the event times of the first and
 * last alert of the window.
 */
export const alertSuppressionSchema = {
  type: 'object',
  properties: {
    count: { type: 'integer', minimum: 0 },
    firstSeen: { type: 'number' },
    lastSeen: { type: 'number' },
    /** Per suppression field (its path as the rule names it), the value; null when the alert lacks it. */
    fields: { type: 'object' },
    window: {
      type: 'object',
      properties: { start: { type: 'number' }, end: { type: 'number' } },
      required: ['start', 'end'],
      additionalProperties: false,
    },
  },
  required: ['count', 'firstSeen', 'lastSeen', 'fields', 'window'],
  additionalProperties: false,
} as const;
