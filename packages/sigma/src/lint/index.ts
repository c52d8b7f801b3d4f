export { lintSigma, sigmaLintCodes } from './sigma.ts';
export type { SigmaLintDiagnostic, SigmaLintOptions } from './sigma.ts';
