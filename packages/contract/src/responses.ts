import type { FromSchema } from './from-schema.ts';
import { anyJson, listOf, responseShape } from './response-shape.ts';
import { serdeConfiguration } from './serdes.ts';

/**
 * The answers of the API routes (spec: Endpoints), as the routes declare them in their `response`
 * schemas (and the OpenAPI document shows them), and their TypeScript types. Every object is open
 * (./response-shape.ts): a schema describes an answer and never drops a field of it. Each answer is
 * written once, `as const`, with `required` naming the fields the server always sends: the type
 * is derived from it, and `responseShape` makes the route's schema of it (which requires nothing).
 */

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const number = { type: 'number' } as const;
const boolean = { type: 'boolean' } as const;
const strings = { type: 'array', items: string } as const;

/** 204: no body. */
export const noContent = { type: 'null', description: 'No content' } as const;

const initializedShape = { type: 'object', properties: { initialized: boolean }, required: ['initialized'] } as const;
export const initialized = responseShape(initializedShape);
export type InitStatus = FromSchema<typeof initializedShape>;

const roleShape = {
  type: 'object',
  properties: { id: integer, name: { type: 'string', enum: ['admin', 'user'] } },
  required: ['id', 'name'],
} as const;
const userShape = {
  type: 'object',
  properties: {
    username: string,
    name: string,
    email: string,
    roles: { type: 'array', items: roleShape },
  },
  description: 'a user (never its password)',
  required: ['username', 'name', 'email', 'roles'],
} as const;
export const user = responseShape(userShape);
export type User = FromSchema<typeof userShape>;
export type Role = FromSchema<typeof roleShape>;

const tokenPairShape = {
  type: 'object',
  properties: { access_token: string, refresh_token: string },
  required: ['access_token', 'refresh_token'],
} as const;
export const tokenPair = responseShape(tokenPairShape);
export type Tokens = FromSchema<typeof tokenPairShape>;

/** A refresh token refused: the text also in the `ERROR` header. */
const refreshRefusedShape = {
  type: 'object',
  properties: { error_message: string },
  required: ['error_message'],
} as const;
export const refreshRefused = responseShape(refreshRefusedShape);
export type RefreshRefused = FromSchema<typeof refreshRefusedShape>;

const serdeConfigShape = {
  type: 'object',
  properties: { serde: strings, serializer: strings, deserializer: strings },
  description: `class names; ${serdeConfiguration.serde.length} of each`,
  required: ['serde', 'serializer', 'deserializer'],
} as const;
export const serdeConfig = responseShape(serdeConfigShape);
export type SerdeConfiguration = FromSchema<typeof serdeConfigShape>;

const engineStatesShape = {
  type: 'object',
  properties: { states: { type: 'array', items: string, description: 'one state per stream thread' } },
  required: ['states'],
} as const;
export const engineStates = responseShape(engineStatesShape);
/** The engine's state in its latest form (the SDK reads earlier forms into it). */
export type EngineState = FromSchema<typeof engineStatesShape>;

const engineWarningShape = {
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      enum: ['RECORDS_NEAR_RETENTION', 'RECORDS_NEAR_RETENTION_BYTES', 'RECORDS_DELETED_UNREAD'],
    },
    topic: string,
    topologies: { type: 'array', items: integer, description: 'ids of the topologies reading the topic' },
    message: string,
    fix: { type: 'string', description: 'the topic setting to change, and the command' },
    since: { type: 'string', description: 'ISO 8601 time it was first seen' },
  },
  required: ['kind', 'topic', 'topologies', 'message', 'fix', 'since'],
} as const;
const engineWarningsShape = {
  type: 'object',
  properties: {
    warnings: {
      type: 'array',
      description: "this node's retention warnings (docs/engine.md → Retention of input topics)",
      items: engineWarningShape,
    },
  },
  required: ['warnings'],
} as const;
export const engineWarnings = responseShape(engineWarningsShape);
/** A retention warning of the engine on an input topic (GET /api/engine/warnings). */
export type EngineWarning = FromSchema<typeof engineWarningShape>;

const nodeShape = {
  type: 'object',
  properties: {
    uuid: string,
    host: string,
    rest: { type: 'string', description: 'REST URL of the node API' },
    group: string,
    state: string,
    lastSeen: { type: 'string', description: 'ISO 8601 time of the last heartbeat' },
    version: string,
    alive: { type: 'boolean', description: 'whether its last heartbeat is recent (weir.node.dead-after-seconds)' },
  },
  required: ['uuid', 'host', 'rest', 'group', 'state', 'lastSeen', 'version', 'alive'],
} as const;
export const node = responseShape(nodeShape);
/** A node of the cluster (GET /api/nodes). */
export type Node = FromSchema<typeof nodeShape>;

/** A topic as created and described: every option as a string. */
const topicShape = {
  type: 'object',
  properties: {
    name: string,
    numberOfPartitions: integer,
    replicationFactor: integer,
    options: { type: 'object', additionalProperties: string, description: 'broker topic settings, all as strings' },
  },
  required: ['name', 'numberOfPartitions', 'replicationFactor'],
} as const;
export const topic = responseShape(topicShape);
export type BrokerTopic = FromSchema<typeof topicShape>;
export const topicNames = { type: 'array', items: string } as const;

const success = { type: 'string', enum: ['success', 'failure'] } as const;
/** One topic of a bulk create (also the earlier form of POST /api/topics with an array). */
const topicResultShape = {
  type: 'object',
  properties: { name: string, result: success, message: string },
  required: ['result'],
} as const;
export const topicResult = responseShape(topicResultShape);
export type TopicResult = FromSchema<typeof topicResultShape>;
export const topicResults = listOf(topicResult);
/** POST /api/topics: the created topic, or for the earlier array form one result per topic (`{result, name}` or `{result, message}`). */
export const topicCreated = {
  anyOf: [
    topic,
    listOf(responseShape({ type: 'object', properties: { result: success, name: string, message: string } })),
  ],
};

const producedShape = {
  type: 'object',
  properties: {
    result: success,
    message: string,
    offsets: {
      type: 'array',
      items: { type: 'object', properties: { partition: integer, offset: integer }, required: ['partition', 'offset'] },
    },
  },
  required: ['result'],
} as const;
export const produced = responseShape(producedShape);
export type Produced = FromSchema<typeof producedShape>;

const consumerCreatedShape = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['CREATED'] } },
  required: ['status'],
} as const;
export const consumerCreated = responseShape(consumerCreatedShape);
export type ConsumerCreated = FromSchema<typeof consumerCreatedShape>;

const consumedMessageShape = {
  type: 'object',
  properties: {
    key: anyJson,
    value: anyJson,
    partition: integer,
    offset: integer,
    timestamp: integer,
    headers: { type: 'object', additionalProperties: string },
  },
  required: ['key', 'value'],
} as const;
/** One record read from a topic (consume, live tails). */
export type ConsumedMessage = FromSchema<typeof consumedMessageShape>;
const consumedShape = {
  type: 'object',
  properties: {
    status: { type: 'string', description: 'CREATED, RUNNING, COMPLETED, or an error text' },
    messages: { type: 'array', items: consumedMessageShape },
  },
  required: ['status', 'messages'],
} as const;
export const consumed = responseShape(consumedShape);
export type ConsumeRead = FromSchema<typeof consumedShape>;

const lookupShape = {
  type: 'object',
  properties: {
    id: string,
    content: {
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      description: 'the rows of the uploaded table',
    },
  },
  required: ['id', 'content'],
} as const;
export const lookup = responseShape(lookupShape);
export type Lookup = FromSchema<typeof lookupShape>;
const lookupIdShape = { type: 'object', properties: { id: string }, required: ['id'] } as const;
export const lookupId = responseShape(lookupIdShape);
export type LookupId = FromSchema<typeof lookupIdShape>;

/** The test endpoints: what the rule, task, pipeline or PDL gave (null when nothing). */
const testResultShape = { type: 'object', properties: { result: anyJson }, required: ['result'] } as const;
export const testResult = responseShape(testResultShape);
export type TestResult = FromSchema<typeof testResultShape>;
/** Task and pipeline tests: `warnings` names the rules APPLY_RULES skipped (present only then). */
const taskTestResultShape = {
  type: 'object',
  properties: { result: anyJson, warnings: strings },
  required: ['result'],
} as const;
export const taskTestResult = responseShape(taskTestResultShape);
export type TaskTestResult = FromSchema<typeof taskTestResultShape>;
const syntaxErrorShape = {
  type: 'object',
  additionalProperties: true,
  description: 'where and why the PDL does not parse',
  properties: { message: string, line: integer, column: integer },
  required: ['message'],
} as const;
/** The syntax check's answer as the SDK reads it (the route's schema leaves `error` open). */
export const syntaxResultShape = {
  type: 'object',
  properties: { result: boolean, error: syntaxErrorShape },
  required: ['result'],
} as const;
export const syntaxResult = responseShape({
  type: 'object',
  properties: {
    result: boolean,
    error: { type: 'object', additionalProperties: true, description: syntaxErrorShape.description },
  },
});
export type SyntaxResult = FromSchema<typeof syntaxResultShape>;

const sigmaDocumentShape = {
  type: 'object',
  additionalProperties: true,
  description: 'per document: the rule it became, or why not',
  properties: {
    document: integer,
    status: { type: 'string', enum: ['converted', 'error', 'filter'] },
    sigmaId: string,
    title: string,
    id: string,
    path: string,
    reason: string,
    stored: boolean,
    warnings: strings,
  },
  required: ['document', 'status'],
} as const;
const sigmaImportShape = {
  type: 'object',
  properties: {
    dryRun: boolean,
    mapping: string,
    converted: integer,
    failed: integer,
    stored: integer,
    results: { type: 'array', items: sigmaDocumentShape },
  },
  required: ['dryRun', 'mapping', 'converted', 'failed', 'stored', 'results'],
} as const;
export const sigmaImport = responseShape({
  type: 'object',
  properties: {
    ...sigmaImportShape.properties,
    results: {
      type: 'array',
      items: { type: 'object', additionalProperties: true, description: sigmaDocumentShape.description },
    },
  },
});
/** POST /api/import/sigma: per document, the rule it became or why not (docs/api.md, "Sigma import"). */
export type SigmaImportResult = FromSchema<typeof sigmaImportShape>;

const sigmaMappingSummaryShape = {
  type: 'object',
  properties: {
    name: string,
    description: string,
    default: { type: 'boolean', description: 'the mapping an import uses when it names none' },
  },
  required: ['name', 'description', 'default'],
} as const;
const sigmaMappingsShape = { type: 'array', items: sigmaMappingSummaryShape } as const;
/** GET /api/import/sigma/mappings: the built-in mappings, sorted by name. */
export const sigmaMappings = responseShape(sigmaMappingsShape);
export type SigmaMappingSummary = FromSchema<typeof sigmaMappingSummaryShape>;
const sigmaMappingShape = {
  type: 'object',
  properties: {
    ...sigmaMappingSummaryShape.properties,
    yaml: { type: 'string', description: 'the mapping file as shipped' },
  },
  required: ['name', 'description', 'default', 'yaml'],
} as const;
/** GET /api/import/sigma/mappings/{name}: one built-in mapping with its file. */
export const sigmaMapping = responseShape(sigmaMappingShape);
export type SigmaMappingFile = FromSchema<typeof sigmaMappingShape>;

const workerShape = {
  type: 'object',
  properties: { worker: string, state: string },
  required: ['worker', 'state'],
} as const;
/** One labelled counter of the summary: its labels as texts and its value. */
const series = <const L extends string>(...labels: L[]) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      properties: {
        ...(Object.fromEntries(labels.map((l) => [l, string])) as { [K in L]: typeof string }),
        value: number,
      },
      required: [...labels, 'value'],
    },
  }) as const;
const metricsSummaryShape = {
  type: 'object',
  properties: {
    node: string,
    time: { type: 'integer', description: 'epoch milliseconds' },
    workers: { type: 'array', items: workerShape },
  },
  description:
    "this node's counters by label (recordsIn, recordsOut, deadLettered, alerts, ruleMatches, ruleSuppressed, lag)",
  required: ['node', 'time', 'workers'],
} as const;
export const metricsSummary = responseShape(metricsSummaryShape);
/** The labelled series of the metrics summary, as the SDK reads them (the route's schema leaves them open). */
export const metricsSeries = {
  recordsIn: series('topology'),
  recordsOut: series('topology', 'topic'),
  deadLettered: series('topology', 'task'),
  alerts: series('topology'),
  ruleMatches: series('rule'),
  ruleSuppressed: series('rule', 'outcome'),
  lag: series('topic', 'partition'),
};
/**
 * `GET /api/metrics/summary`: this node's counters as JSON. The labelled series are named in the
 * route schema's description (the schema, open, leaves them as they are); their shape is `series`.
 */
export type MetricsSummary = FromSchema<typeof metricsSummaryShape> & {
  [K in keyof typeof metricsSeries]: FromSchema<(typeof metricsSeries)[K]>;
};

export const eventStream = { type: 'string', description: 'text/event-stream: one event per record' } as const;

const auditPageShape = {
  type: 'object',
  properties: {
    total: integer,
    offset: integer,
    limit: integer,
    entries: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  required: ['total', 'offset', 'limit', 'entries'],
} as const;
export const auditPage = responseShape(auditPageShape);
export type AuditPage = FromSchema<typeof auditPageShape>;

const idOf = { type: ['string', 'integer'] } as const;
const danglingReferenceShape = {
  type: 'object',
  properties: {
    from: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['topology', 'pipeline', 'task', 'rule'] },
        id: idOf,
        name: string,
      },
      required: ['kind', 'id', 'name'],
    },
    to: {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['topic', 'pipeline', 'task', 'rule', 'lookup'] }, id: idOf },
      required: ['kind', 'id'],
    },
    field: { type: 'string', description: 'where in the record: definition.rules[1], tasks[0], input.name, …' },
    message: string,
  },
  required: ['from', 'to', 'field', 'message'],
} as const;
const danglingReferencesShape = {
  type: 'object',
  properties: {
    count: integer,
    topicsChecked: { type: 'boolean', description: 'false when Kafka did not answer; then topicsError says why' },
    topicsError: string,
    references: { type: 'array', items: danglingReferenceShape },
  },
  required: ['count', 'topicsChecked', 'references'],
} as const;
/** GET /api/diagnostics/references: every reference of the stored configuration to something that does not exist. */
export const danglingReferences = responseShape(danglingReferencesShape);
export type DanglingReference = FromSchema<typeof danglingReferenceShape>;
export type DanglingReferences = FromSchema<typeof danglingReferencesShape>;
