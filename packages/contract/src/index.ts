export type { FromSchema } from './from-schema.ts';
export { anyJson, listOf, responseShape } from './response-shape.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './requests.ts';
export * from './resources.ts';
export * from './responses.ts';
export * from './roles.ts';
export * from './serdes.ts';
export { fixedHeaders, hstsHeader } from './security-headers.ts';
export { taskDefaults, type RawOptions } from './task-defaults.ts';
export { taskFunctionNames, taskFunctions, type TaskDefinitions, type TaskFunction } from './task-schemas.ts';
export { maxTopicNameLength, topicNameProblem, topicNameSchema } from './topic-names.ts';
export {
  consumeBody,
  consumeDefaults,
  consumeQuery,
  maxTopicsPerRequest,
  produceBody,
  produceQuery,
  startFields,
  topicListSchema,
  topicOrListSchema,
  topicParams,
  topicSpecSchema,
  type ConsumeQuery,
  type ConsumeRequest,
  type ConsumerGroupDetail,
  type ConsumerGroupSummary,
  type LagHistory,
  type ProduceQuery,
  type ProduceRequest,
  type PurgeRequest,
  type PurgeResult,
  type ResetOffsetsRequest,
  type ResetOffsetsResult,
  type StartPositionFields,
  type TopicBody,
  type TopicPartitions,
  type TopicSetting,
  type TopicSettings,
} from './topics.ts';
export * from './users.ts';
