export { convertSigma } from './convert.ts';
export type { ConvertOptions } from './convert.ts';
export { weirRuleId } from './documents.ts';
export type { ConvertedDocument, DocumentResult, FailedDocument, FilterDocument, WeirRule } from './documents.ts';
export { MappingError, findLogsource, parseMapping } from './mapping.ts';
export type { LogsourceEntry, Mapping } from './mapping.ts';
export { SigmaConversionError } from './errors.ts';
export type { SigmaMetadata } from './metadata.ts';
/** The folder of the mappings that ship with Weir (`<name>.yml`); reading them is the caller's I/O. */
export const builtInMappingsUrl: URL = new URL('../mappings/', import.meta.url);
export { lintSigma, sigmaLintCodes } from './lint.ts';
export type { SigmaLintDiagnostic, SigmaLintOptions } from './lint.ts';
