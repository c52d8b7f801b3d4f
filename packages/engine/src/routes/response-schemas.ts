import { serdeConfiguration } from '../kafka/serdes.ts';
import { anyJson, listOf, responseShape } from '../validation/response-shape.ts';

/**
 * The answers of the API routes (spec: Endpoints), as the routes declare them in their `response`
 * schemas (and the OpenAPI document shows them). Every object is open (validation/response-shape.ts):
 * a schema describes an answer and never drops a field of it.
 */

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const strings = { type: 'array', items: string } as const;
const object = (properties: Record<string, object>, description?: string) =>
  responseShape({ type: 'object', properties, ...(description === undefined ? {} : { description }) });

/** 204: no body. */
export const noContent = { type: 'null', description: 'No content' } as const;

export const initialized = object({ initialized: boolean });

export const user = object(
  {
    username: string,
    name: string,
    email: string,
    roles: {
      type: 'array',
      items: { type: 'object', properties: { id: integer, name: { type: 'string', enum: ['admin', 'user'] } } },
    },
  },
  'a user (never its password)',
);

export const tokenPair = object({ access_token: string, refresh_token: string });
/** A refresh token refused: the text also in the `ERROR` header. */
export const refreshRefused = object({ error_message: string });

export const serdeConfig = object(
  { serde: strings, serializer: strings, deserializer: strings },
  `class names; ${serdeConfiguration.serde.length} of each`,
);

export const engineStates = object({
  states: { type: 'array', items: string, description: 'one state per stream thread' },
});

export const engineWarnings = object({
  warnings: {
    type: 'array',
    description: "this node's retention warnings (docs/engine.md → Retention of input topics)",
    items: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['RECORDS_NEAR_RETENTION', 'RECORDS_DELETED_UNREAD'] },
        topic: string,
        topologies: { type: 'array', items: integer, description: 'ids of the topologies reading the topic' },
        message: string,
        fix: { type: 'string', description: 'the topic setting to change, and the command' },
        since: { type: 'string', description: 'ISO 8601 time it was first seen' },
      },
    },
  },
});

export const node = object({
  uuid: string,
  host: string,
  rest: { type: 'string', description: 'REST URL of the node API' },
  group: string,
  state: string,
  lastSeen: { type: 'string', description: 'ISO 8601 time of the last heartbeat' },
  version: string,
});

/** A topic as created and described: every option as a string. */
export const topic = object({
  name: string,
  numberOfPartitions: integer,
  replicationFactor: integer,
  options: { type: 'object', additionalProperties: string, description: 'broker topic settings, all as strings' },
});
export const topicNames = { type: 'array', items: string } as const;

/** One topic of a bulk create (also the earlier form of POST /api/topics with an array). */
export const topicResult = object({
  name: string,
  result: { type: 'string', enum: ['success', 'failure'] },
  message: string,
});
export const topicResults = listOf(topicResult);
/** POST /api/topics: the created topic, or for the earlier array form one result per topic (`{result, name}` or `{result, message}`). */
export const topicCreated = {
  anyOf: [
    topic,
    listOf(object({ result: { type: 'string', enum: ['success', 'failure'] }, name: string, message: string })),
  ],
};

export const produced = object({ result: { type: 'string', enum: ['success', 'failure'] }, message: string });
export const consumerCreated = object({ status: { type: 'string', enum: ['CREATED'] } });
export const consumed = object({
  status: { type: 'string', description: 'CREATED, RUNNING, COMPLETED, or an error text' },
  messages: listOf(
    object({
      key: anyJson,
      value: anyJson,
      partition: integer,
      offset: integer,
      timestamp: integer,
      headers: { type: 'object', additionalProperties: string },
    }),
  ),
});

export const lookup = object({
  id: string,
  content: {
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'the rows of the uploaded table',
  },
});
export const lookupId = object({ id: string });

/** The test endpoints: what the rule, task, pipeline or PDL gave (null when nothing). */
export const testResult = object({ result: anyJson });
/** Task and pipeline tests: `warnings` names the rules APPLY_RULES skipped (present only then). */
export const taskTestResult = object({ result: anyJson, warnings: strings });
export const syntaxResult = object({
  result: boolean,
  error: { type: 'object', additionalProperties: true, description: 'where and why the PDL does not parse' },
});

export const sigmaImport = object({
  dryRun: boolean,
  mapping: string,
  converted: integer,
  failed: integer,
  stored: integer,
  results: {
    type: 'array',
    items: { type: 'object', additionalProperties: true, description: 'per document: the rule it became, or why not' },
  },
});

export const metricsSummary = object(
  {
    node: string,
    time: { type: 'integer', description: 'epoch milliseconds' },
    workers: listOf(object({ worker: string, state: string })),
  },
  "this node's counters by label (recordsIn, recordsOut, deadLettered, alerts, ruleMatches, lag)",
);

export const eventStream = { type: 'string', description: 'text/event-stream: one event per record' } as const;

export const auditPage = object({
  total: integer,
  offset: integer,
  limit: integer,
  entries: { type: 'array', items: { type: 'object', additionalProperties: true } },
});
