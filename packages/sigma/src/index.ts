export { convertSigma, weirRuleId } from './convert.ts';
export type { ConvertOptions, ConvertedDocument, DocumentResult, FailedDocument, FilterDocument, WeirRule } from './convert.ts';
export { MappingError, findLogsource, parseMapping } from './mapping.ts';
export type { LogsourceEntry, Mapping } from './mapping.ts';
export { SigmaConversionError } from './errors.ts';
export type { SigmaMetadata } from './metadata.ts';
