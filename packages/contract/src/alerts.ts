import type { FromSchema } from './from-schema.ts';
import { responseShape } from './response-shape.ts';
import { severities, severitySchema } from './severity.ts';

/**
 * The alert store and triage (docs/alerts.md, "The alert store and triage"): every node indexes the
 * alerts topic; triage state (status, resolution, assignee, notes) travels on a compacted topic so
 * that every node converges.
 */
export const alertStatuses = ['new', 'acknowledged', 'closed'] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/** Why an alert was closed; required when closing, cleared when an alert is reopened. */
export const alertResolutions = ['true_positive', 'false_positive', 'benign', 'duplicate', 'other'] as const;
export type AlertResolution = (typeof alertResolutions)[number];

/** At most this many alerts in one page and in one bulk triage. */
export const maxAlertPage = 1000;
export const maxBulkTriage = 1000;

/** One note of an alert's triage: who wrote it and when (epoch milliseconds). */
const noteSchema = {
  type: 'object',
  properties: { user: { type: ['string', 'null'] }, time: { type: 'number' }, text: { type: 'string' } },
  required: ['user', 'time', 'text'],
  additionalProperties: false,
} as const;

/**
 * An alert's triage state: what `<prefix>_alert_triage` holds under the alert id, and what the
 * API shows of it. `updatedBy`/`updatedAt` are null/0 until the first change.
 */
export const alertTriageSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: alertStatuses },
    resolution: { type: ['string', 'null'], enum: [...alertResolutions, null] },
    assignee: { type: ['string', 'null'] },
    notes: { type: 'array', items: noteSchema },
    updatedBy: { type: ['string', 'null'] },
    updatedAt: { type: 'number' },
  },
  required: ['status', 'resolution', 'assignee', 'notes', 'updatedBy', 'updatedAt'],
  additionalProperties: false,
} as const;
export type AlertTriage = FromSchema<typeof alertTriageSchema>;
export type AlertNote = FromSchema<typeof noteSchema>;

/**
 * A triage change (`PATCH /api/alerts/{id}`, and `change` of the bulk triage): at least one field.
 * `assignee: null` unassigns; `note` is appended to the notes with the caller and the time.
 */
export const alertTriageChange = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: alertStatuses },
    resolution: { type: 'string', enum: alertResolutions },
    assignee: { type: ['string', 'null'], minLength: 1, maxLength: 256 },
    note: { type: 'string', minLength: 1, maxLength: 10_000 },
  },
  minProperties: 1,
  additionalProperties: false,
} as const;
export type AlertTriageChange = FromSchema<typeof alertTriageChange>;

/** `POST /api/alerts/triage`: one change for many alerts, all or none. */
export const alertBulkTriage = {
  type: 'object',
  properties: {
    ids: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 64 },
      minItems: 1,
      maxItems: maxBulkTriage,
      uniqueItems: true,
    },
    change: alertTriageChange,
  },
  required: ['ids', 'change'],
  additionalProperties: false,
} as const;
export type AlertBulkTriage = FromSchema<typeof alertBulkTriage>;

/** `/api/alerts/{id}`. */
export const alertParams = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['id'],
} as const;

const time = { type: 'string', maxLength: 64 } as const;
/** A parameter that may repeat: one value is a string, several an array (the route checks the values). */
const repeatable = {
  type: ['string', 'array'],
  maxLength: 64,
  items: { type: 'string', maxLength: 64 },
  maxItems: 64,
} as const;

/**
 * The filters `GET /api/alerts` and `GET /api/alerts/groups` share. `severity`, `status` and
 * `technique` may repeat (any of them); `minSeverity` keeps that severity and the ones above it;
 * `field.<path>=<value>` keeps alerts whose field at the dotted path equals the value (repeatable
 * for different paths, all must match); `silenced=true|false` keeps the alerts silenced now (a
 * non-empty `silencedBy`) or the others.
 */
const selectionProperties = {
  from: time,
  to: time,
  rule: { type: 'string', maxLength: 1024 },
  severity: repeatable,
  minSeverity: { type: 'string', enum: severities },
  status: repeatable,
  assignee: { type: 'string', maxLength: 256 },
  technique: repeatable,
  q: { type: 'string', minLength: 1, maxLength: 1024 },
  silenced: { type: 'boolean' },
} as const;
/** `field.<dotted path>`: a field of the record equal to the value. */
const fieldFilters = { '^field\\.': { type: 'string', maxLength: 1024 } } as const;

export const alertSelection = {
  type: 'object',
  properties: selectionProperties,
  patternProperties: fieldFilters,
  additionalProperties: false,
} as const;
export type AlertSelection = FromSchema<typeof alertSelection> & {
  [field: `field.${string}`]: string | undefined;
};

/** `GET /api/alerts`: the filters, a page size and a cursor. */
export const alertListQuery = {
  type: 'object',
  properties: {
    ...selectionProperties,
    limit: { type: 'integer', minimum: 0, maximum: 999_999_999 },
    cursor: { type: 'string', maxLength: 1024 },
  },
  patternProperties: fieldFilters,
  additionalProperties: false,
} as const;
export type AlertListQuery = FromSchema<typeof alertListQuery> & { [field: `field.${string}`]: string | undefined };

/** `GET /api/alerts/groups`: `by=rule` or `by=field:<dotted path>`, over the alerts the list's filters keep. */
export const alertGroupQuery = {
  type: 'object',
  properties: { by: { type: 'string', minLength: 1, maxLength: 1024 }, ...selectionProperties },
  required: ['by'],
  patternProperties: fieldFilters,
  additionalProperties: false,
} as const;
export type AlertGroupQuery = FromSchema<typeof alertGroupQuery> & {
  [field: `field.${string}`]: string | undefined;
};

/**
 * One alert as the API shows it: its `_alert` metadata and rule, its triage, and the whole record
 * of the alerts topic (`record`), which holds every field a silence or notifier matcher reads.
 */
const alertShape = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    time: { type: 'number' },
    rule: {
      type: 'object',
      properties: { id: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } },
      required: ['id', 'name'],
    },
    severity: severitySchema,
    techniques: { type: 'array', items: { type: 'string' } },
    source: { type: ['object', 'null'] },
    ...alertTriageSchema.properties,
    record: { type: 'object' },
    /** The silences that silence it (docs/alerts.md, "Silences"): those matching it that cover its time or now. */
    silencedBy: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'time', 'rule', 'severity', 'techniques', 'source', ...alertTriageSchema.required, 'record'],
} as const;
export type AlertView = FromSchema<typeof alertShape>;
export const alertView = responseShape(alertShape);

const alertPageShape = {
  type: 'object',
  properties: {
    alerts: { type: 'array', items: alertShape },
    nextCursor: { type: ['string', 'null'] },
  },
  required: ['alerts', 'nextCursor'],
} as const;
export const alertPage = responseShape(alertPageShape);
export type AlertPage = { alerts: AlertView[]; nextCursor: string | null };

const alertBulkResultShape = {
  type: 'object',
  properties: { alerts: { type: 'array', items: alertShape } },
  required: ['alerts'],
} as const;
export const alertBulkResult = responseShape(alertBulkResultShape);

const alertGroupShape = {
  type: 'object',
  properties: {
    key: { type: ['string', 'null'] },
    count: { type: 'integer' },
    firstSeen: { type: 'number' },
    lastSeen: { type: 'number' },
  },
  required: ['key', 'count', 'firstSeen', 'lastSeen'],
} as const;
export type AlertGroup = FromSchema<typeof alertGroupShape>;
const alertGroupsShape = {
  type: 'object',
  properties: { by: { type: 'string' }, groups: { type: 'array', items: alertGroupShape } },
  required: ['by', 'groups'],
} as const;
export const alertGroups = responseShape(alertGroupsShape);
export type AlertGroups = FromSchema<typeof alertGroupsShape>;
