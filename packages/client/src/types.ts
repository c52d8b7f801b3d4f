import type { FromSchema } from './schema-types.ts';
// Type-only imports: the engine's schema constants are the one source of these shapes (nothing of
// the engine is bundled into the UI).
import type { pipelineSchema } from '../../engine/src/resources/pipeline.ts';
import type { ruleSchema } from '../../engine/src/resources/rule.ts';
import type { taskSchema } from '../../engine/src/resources/task.ts';
import type { topologySchema } from '../../engine/src/resources/topology.ts';
import type { taskFunctions } from '../../engine/src/tasks/task-definitions.ts';

export type Rule = FromSchema<typeof ruleSchema>;
export type Pipeline = FromSchema<typeof pipelineSchema>;
export type Topology = FromSchema<typeof topologySchema>;
export type TopicEndpoint = Topology['input'];
export type TaskFunctionName = keyof typeof taskFunctions;
/** The definition of each task function, from the schema the API validates it with. */
export type TaskDefinitions = { [F in TaskFunctionName]: FromSchema<(typeof taskFunctions)[F]> };
export type Task = Omit<FromSchema<typeof taskSchema>, 'definition'> & { definition: Record<string, unknown> };

export interface Role {
  id?: number;
  name: string;
}
export interface User {
  name: string;
  username: string;
  email: string;
  roles: Role[];
}
export interface UserInput {
  name: string;
  username: string;
  email: string;
  password: string;
  roles: { name: string }[];
}
export interface Node {
  uuid: string;
  host: string;
  rest: string;
  group: string;
}
export interface Lookup {
  id: string;
  content: Record<string, unknown>[];
}
export interface Tokens {
  access_token: string;
  refresh_token: string;
}
export interface SerdeConfiguration {
  serde: string[];
  serializer: string[];
  deserializer: string[];
}

export interface BrokerTopic {
  name: string;
  numberOfPartitions: number;
  replicationFactor: number;
  options?: Record<string, string>;
}
export interface TopicResult {
  name?: string;
  result: 'success' | 'failure';
  message?: string;
}

export interface ProduceRequest {
  keySerializer?: string;
  valueSerializer?: string;
  messages: { key?: unknown; value: unknown; headers?: Record<string, string> }[];
}
export type StartPosition = 'earliest' | 'latest' | 'offset' | 'timestamp';
export interface ConsumeRequest {
  keyDeserializer?: string;
  valueDeserializer?: string;
  maxEvents?: number;
  maxTimeoutSeconds?: number;
  offset?: 'earliest' | 'latest';
  /** Start at this offset (every partition, or `partition` only). */
  startOffset?: number;
  /** Start at the first message at or after this time (epoch milliseconds). */
  startTimestamp?: number;
  partition?: number;
}
export interface ConsumedMessage {
  key: unknown;
  value: unknown;
  partition?: number;
  offset?: number;
  timestamp?: number;
  headers?: Record<string, string>;
}
export interface ConsumeRead {
  status: string;
  messages: ConsumedMessage[];
}

/** The engine's state in its latest form, whatever form the server answered in. */
export interface EngineState {
  states: string[];
}

/**
 * `GET /api/engine/warnings` (not in the spec): an input topic whose retention deletes records
 * before the engine reads them (docs/engine.md → Retention of input topics).
 */
export interface EngineWarning {
  kind: 'RECORDS_NEAR_RETENTION' | 'RECORDS_DELETED_UNREAD';
  topic: string;
  /** Ids of the topologies reading the topic. */
  topologies: number[];
  message: string;
  /** The topic setting to change, with the command. */
  fix: string;
  /** ISO 8601: when the node first saw it. */
  since: string;
}

/** `GET /api/metrics/summary`: this node's counters as JSON. */
export interface MetricsSummary {
  node: string;
  time: number;
  workers: { worker: string; state: string }[];
  recordsIn: { topology: string; value: number }[];
  recordsOut: { topology: string; topic: string; value: number }[];
  deadLettered: { topology: string; task: string; value: number }[];
  alerts: { topology: string; value: number }[];
  ruleMatches: { rule: string; value: number }[];
  lag: { topic: string; partition: string; value: number }[];
}

/** A task or pipeline test's answer: `warnings` names the rules APPLY_RULES skipped ("rule `failed` does not exist"). */
export interface TaskTestOutcome {
  result: unknown;
  warnings: string[];
}

/** One reference to something that does not exist (`GET /api/diagnostics/references`). */
export interface DanglingReference {
  from: { kind: 'topology' | 'pipeline' | 'task' | 'rule'; id: string | number; name: string };
  to: { kind: 'topic' | 'pipeline' | 'task' | 'rule' | 'lookup'; id: string | number };
  /** Where in the record: `definition.rules[1]`, `tasks[0]`, `input.name`, … */
  field: string;
  message: string;
}

/** `GET /api/diagnostics/references`: `topicsChecked` false (and `topicsError`) when Kafka did not answer. */
export interface DanglingReferences {
  count: number;
  topicsChecked: boolean;
  topicsError?: string;
  references: DanglingReference[];
}

/** The API's error object. */
export interface ErrorBody {
  status: string;
  message: string;
  debugMessage: string;
  details?: string[];
}
