export { lintPdl, pdlLintCodes } from './pdl.ts';
export type { PdlLintOptions } from './pdl.ts';
export { lintRuleReferences } from './ruleReferences.ts';
export { closest, positionAt, rangeAt, sortDiagnostics } from './diagnostic.ts';
export type { LintDiagnostic, LintEdit, LintFix, LintRange, LintSeverity } from './diagnostic.ts';
