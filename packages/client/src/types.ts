/**
 * The SDK's types: every shape the API takes or answers comes from the API's contract
 * (@weir/contract), where it is derived from the JSON Schema the server validates or describes it
 * with, so the SDK and the server cannot drift apart.
 */
export type {
  AlertGroup,
  AlertGroupQuery,
  AlertGroups,
  AlertListQuery,
  AlertMetadata,
  AlertPage,
  AlertResolution,
  AlertStatus,
  AlertTriageChange,
  AlertView,
  BrokerTopic,
  ConsumedMessage,
  ConsumerGroupDetail,
  ConsumerGroupSummary,
  ConsumeRead,
  ConsumeRequest,
  DanglingReference,
  DanglingReferences,
  ElementViolations,
  EngineState,
  EngineWarning,
  ErrorBody,
  ErrorDetail,
  LagHistory,
  Lookup,
  MetricsSummary,
  Node,
  Pipeline,
  ProduceRequest,
  PurgeRequest,
  PurgeResult,
  ResetOffsetsRequest,
  ResetOffsetsResult,
  Role,
  Rule,
  NewNotifier,
  Notifier,
  NotifierMatcher,
  NotifierUpdate,
  Severity,
  Silence,
  SilenceMatcher,
  SilenceRequest,
  SilenceState,
  SerdeConfiguration,
  SigmaImportResult,
  SigmaMappingFile,
  SigmaMappingSummary,
  Task,
  TaskDefinitions,
  Tokens,
  TopicEndpoint,
  TopicPartitions,
  TopicResult,
  TopicSetting,
  TopicSettings,
  Topology,
  User,
  UserInput,
  UserUpdate,
} from '@weir/contract';
export type { TaskFunction as TaskFunctionName } from '@weir/contract';
export type { SigmaImportRequest, TailQuery } from '@weir/contract';
export type { FieldChange, LineChange, VersionDetail, VersionDiff, VersionSummary } from '@weir/contract';
export type { ExplainRequest } from '@weir/contract';
export type {
  ConditionExplanation,
  CorrelationStageTrace,
  EmissionTrace,
  EventTrace,
  Explanation,
  FieldSeen,
  StageTrace,
} from '@weir/pdl';

/** A task or pipeline test's answer as the SDK reads it: `warnings` names the rules APPLY_RULES skipped ("rule `failed` does not exist"), empty when none. */
export interface TaskTestOutcome {
  result: unknown;
  warnings: string[];
}
