export { WeirClient, type ClientOptions, type PdlSyntax, type ResourceApi } from './client.ts';
export { readErrorBody, SessionExpiredError, WeirApiError } from './errors.ts';
export * from './types.ts';
export {
  readEngineState,
  readRule,
  readTestResult,
  readTopology,
  isRefreshFailure,
  type TestOutcome,
} from './versioning.ts';
export { ExtraEndpoints, type SigmaImportRequest } from './extra-endpoints.ts';
export { taskDefaults, taskSchemas } from './task-schemas.ts';
