export type * from './ast.ts';
export { ComparisonOperator } from './ast.ts';
export { parse } from './parser.ts';
export type { ParseOptions } from './parser.ts';
export { print } from './printer.ts';
export { commands, functionNames, keywords, optionWords } from './vocabulary.ts';
export { lex } from './lexer.ts';
export { TokenKind } from './tokenKind.ts';
export type { Token } from './tokenKind.ts';
export { compile } from './compiler.ts';
export type { CompileOptions, CompiledPdl, EvaluationContext, RoutedEvent } from './compiler.ts';
export { check } from './check.ts';
export type { CheckResult } from './check.ts';
export {
  PdlCompileError,
  PdlError,
  PdlSyntaxError,
  isPdlError,
  isPdlSyntaxError,
  kPdlSyntaxError,
  pdlErrorCodes,
} from './errors.ts';
export type { PdlErrorCode } from './errors.ts';
export type { SourcePosition } from './errors.ts';
export { RuleIndex } from './ruleIndex.ts';
export type { IndexableRule, IndexEntry, RuleSlot } from './ruleIndex.ts';
export { compileUserRegex, UserRegexError } from './regex.ts';
export type { UserRegex } from './regex.ts';
export type { IndexedLookupTable, LookupResolver, LookupTable } from './lookup.ts';
export { lookupCell } from './lookup.ts';
export { InMemoryCorrelationStateStore, newStageClock } from './stateStore.ts';
export type { CorrelationGroupState, CorrelationStateStore, StageClock } from './stateStore.ts';
export type { PdlCounters } from './correlation.ts';
export { defaultLimits } from './limits.ts';
export type { PdlLimits } from './limits.ts';
export { valueKey } from './values.ts';
export type { JsonObject } from './values.ts';
export { cloneJson, fromText, isCanonicalNumeral, isObject, setOwn } from './values.ts';
export { parseKeyValues, splitCsv } from './textParsers.ts';
export { originalAggregation, originalTemporal, outputKeys, outputNames, setOutputNames } from './outputNames.ts';
export type { OutputNames } from './outputNames.ts';
export { explain } from './explain.ts';
export type {
  ConditionExplanation,
  CorrelationStageTrace,
  CorrelationTrace,
  EmissionTrace,
  EventTrace,
  ExplainOptions,
  Explanation,
  FieldSeen,
  GroupRef,
  QueryStageTrace,
  StageTrace,
  TransformStageTrace,
} from './explain.ts';
export { explainQuery } from './explainQuery.ts';
export { lintPdl, pdlLintCodes } from './lint.ts';
export type { PdlLintOptions } from './lint.ts';
export { lintRuleReferences } from './lintRuleReferences.ts';
export { closest, positionAt, rangeAt, sortDiagnostics } from './lintDiagnostic.ts';
export type { LintDiagnostic, LintEdit, LintFix, LintRange, LintSeverity } from './lintDiagnostic.ts';
