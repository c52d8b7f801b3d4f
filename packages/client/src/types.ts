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
/** `GET /api/topics/{name}/partitions` (docs/api.md → Topics in depth). */
export interface TopicPartitions {
  name: string;
  messages: number;
  sizeBytes: number;
  partitions: {
    partition: number;
    leader: number;
    replicas: number[];
    inSyncReplicas: number[];
    lowOffset: number;
    highOffset: number;
    messages: number;
    sizeBytes: number;
  }[];
}
export interface TopicSetting {
  name: string;
  value: string | null;
  source: string;
  /** Set on the topic itself (changed from the broker's default). */
  changed: boolean;
  readOnly: boolean;
  sensitive: boolean;
}
export interface TopicSettings {
  name: string;
  settings: TopicSetting[];
}
export type PurgeRequest =
  { confirm: string; offsets: Record<string, number> } | { confirm: string; beforeTimestamp: number };
export interface PurgeResult {
  name: string;
  partitions: { partition: number; lowOffset: number }[];
}
/** `GET /api/consumer-groups` (docs/api.md → Consumer groups). */
export interface ConsumerGroupSummary {
  id: string;
  state: string;
  members: number;
  lag: number;
  /** Weir's topologies consuming as this group. */
  topologies: { id: number; name: string }[];
}
export interface ConsumerGroupDetail extends ConsumerGroupSummary {
  protocolType: string;
  protocol: string;
  memberDetails: {
    id: string;
    clientId: string;
    host: string;
    assignments: { topic: string; partitions: number[] }[];
  }[];
  partitions: {
    topic: string;
    partition: number;
    committedOffset: number | null;
    endOffset: number;
    lag: number;
    member: string | null;
  }[];
}
export interface LagHistory {
  id: string;
  sampleSeconds: number;
  keepMinutes: number;
  samples: { time: string; lag: number; partitions: { topic: string; partition: number; lag: number }[] }[];
}
export interface ResetOffsetsRequest {
  to: 'earliest' | 'latest' | 'timestamp' | 'offset';
  timestamp?: number;
  offset?: number;
  topics?: string[];
}
export interface ResetOffsetsResult {
  id: string;
  offsets: { topic: string; partition: number; offset: number }[];
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

/** The API's error object. */
export interface ErrorBody {
  status: string;
  message: string;
  debugMessage: string;
  details?: string[];
}
