/**
 * The SDK's types: every shape the API takes or answers comes from the API's contract
 * (@weir/contract), where it is derived from the JSON Schema the server validates or describes it
 * with, so the SDK and the server cannot drift apart.
 */
export type {
  BrokerTopic,
  ConsumedMessage,
  ConsumeRead,
  ConsumeRequest,
  ElementViolations,
  EngineState,
  ErrorBody,
  ErrorDetail,
  Lookup,
  MetricsSummary,
  Node,
  Pipeline,
  ProduceRequest,
  Role,
  Rule,
  SerdeConfiguration,
  SigmaImportResult,
  Task,
  TaskDefinitions,
  Tokens,
  TopicEndpoint,
  TopicResult,
  Topology,
  User,
  UserInput,
  UserUpdate,
} from '@weir/contract';
export type { TaskFunction as TaskFunctionName } from '@weir/contract';
