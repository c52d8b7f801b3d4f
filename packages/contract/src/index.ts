export type { FromSchema } from './from-schema.ts';
export { anyJson, listOf, responseShape } from './response-shape.ts';
export * from './alert-record.ts';
export * from './alerts.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './requests.ts';
export * from './resources.ts';
export * from './responses.ts';
export * from './roles.ts';
export * from './serdes.ts';
export * from './severity.ts';
export * from './silences.ts';
export * from './suppression.ts';
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
  type ProduceQuery,
  type ProduceRequest,
  type StartPositionFields,
  type TopicBody,
} from './topics.ts';
export * from './users.ts';
export * from './notifiers.ts';
export * from './topic-details.ts';
export * from './consumer-groups.ts';
export * from './versions.ts';
export * from './explain.ts';
export * from './backtests.ts';
export { attackTable, attackVersion } from './attack.ts';
export type { AttackTable } from './attack.ts';
export { lintResult, lintSample, pdlLintBody, sigmaLintBody, taskLintBody } from './lint.ts';
export type { LintDiagnosticBody, LintResult, PdlLintRequest } from './lint.ts';
